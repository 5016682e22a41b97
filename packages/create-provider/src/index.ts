// @runtimectl/create-provider: `npm create @runtimectl/provider <dir>` writes a provider project.
export { createProject, providerIdFrom, dependencyRanges, CreateProviderError, type CreateProjectOptions, type CreatedProject } from './create-project';
