// pnpm hooks. beforePacking shapes the package.json that `pnpm pack` and `pnpm publish` put in a
// tarball (the file in the repository is untouched): a user never installs a dependency's
// devDependencies, and ours name private workspace packages (@runtimectl/ci-guard) that exist on
// no registry, so the published manifest leaves them out (docs/releasing.md).
module.exports = {
  hooks: {
    beforePacking(pkg) {
      delete pkg.devDependencies;
      return pkg;
    },
  },
};
