/**
 * The python3 helper behind `file-metadata.ts` (Node has no xattr API). It reads one JSON
 * request a line on stdin and answers `{id, result}` or `{id, error}` a line on stdout, until
 * stdin closes:
 *
 * - `read {path}`: the `user.e2b.*` extended attributes of `path` (the prefix stripped), `{}` when
 *   it has none or cannot have any;
 * - `write {path, metadata}`: makes them exactly `metadata` (stale keys removed);
 * - `copy {from, to}`: every `user.*` attribute of every file and directory under `from` onto the
 *   same relative path under `to` (a copy made by `fs.cp`, which drops them).
 *
 * Never follows a symbolic link (Linux keeps no user attributes on links anyway). Run with `-I`,
 * so no PYTHON* variable or user site directory changes what it does.
 */
export const FILE_METADATA_SCRIPT = String.raw`
import json, os, stat, sys
PREFIX = 'user.e2b.'

def read(path):
    found = {}
    try:
        for name in os.listxattr(path, follow_symlinks=False):
            if name.startswith(PREFIX):
                found[name[len(PREFIX):]] = os.getxattr(path, name, follow_symlinks=False).decode('utf-8', 'replace')
    except OSError:
        pass
    return found

def write(path, metadata):
    for name in os.listxattr(path, follow_symlinks=False):
        if name.startswith(PREFIX) and name[len(PREFIX):] not in metadata:
            os.removexattr(path, name, follow_symlinks=False)
    for key, value in metadata.items():
        os.setxattr(path, PREFIX + key, value.encode('utf-8'), follow_symlinks=False)

def copy_one(source, target):
    try:
        if stat.S_ISLNK(os.lstat(source).st_mode):
            return
        for name in os.listxattr(source, follow_symlinks=False):
            if name.startswith('user.'):
                os.setxattr(target, name, os.getxattr(source, name, follow_symlinks=False), follow_symlinks=False)
    except OSError:
        pass

def copy(source_root, target_root):
    copy_one(source_root, target_root)
    for directory, directories, files in os.walk(source_root):
        relative = os.path.relpath(directory, source_root)
        for name in directories + files:
            copy_one(os.path.join(directory, name), os.path.normpath(os.path.join(target_root, relative, name)))

OPERATIONS = {
    'read': lambda request: read(request['path']),
    'write': lambda request: write(request['path'], request['metadata']),
    'copy': lambda request: copy(request['from'], request['to']),
}

for line in sys.stdin:
    request = json.loads(line)
    try:
        answer = {'id': request['id'], 'result': OPERATIONS[request['op']](request)}
    except OSError as error:
        answer = {'id': request['id'], 'error': os.strerror(error.errno) if error.errno else str(error)}
    sys.stdout.write(json.dumps(answer) + '\n')
    sys.stdout.flush()
`;
