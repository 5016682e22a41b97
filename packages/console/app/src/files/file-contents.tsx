import { useApiClient } from '../api/api-context';
import type { TreeEntry } from '../api/api-types';
import { readFileBytes } from '../api/runtimectl-api';
import { ErrorAlert } from '../components/error-alert';
import { useApiCall } from '../components/use-api-call';
import { decodeFileText, isTooLargeToShow } from '../diff/file-kind';
import { CodeView } from './code-view';

/** A file of a checkpoint, read from its snapshot without restoring it; binary and large files are described, not shown. */
export function FileContents({ checkpointId, path, entry }: { checkpointId: string; path: string; entry: TreeEntry }) {
  const client = useApiClient();
  const tooLarge = isTooLargeToShow(entry.size);
  const contents = useApiCall(
    async (signal) => (tooLarge ? null : decodeFileText(await readFileBytes(client, { checkpointId }, path, signal))),
    [client, checkpointId, path, tooLarge],
  );

  let body;
  if (tooLarge) body = <p>Too large to show inline ({entry.size} bytes)</p>;
  else if (contents.error) body = <ErrorAlert error={contents.error} context={`Reading ${path}`} />;
  else if (!contents.data) body = <p>Loading {path}…</p>;
  else if (contents.data.kind === 'binary') body = <p>Binary file: {contents.data.size} bytes</p>;
  else body = <CodeView path={path} text={contents.data.text} />;

  return (
    <section class="file-contents" role="region" aria-label={`Contents of ${path}`}>
      <h2>
        <code>{path}</code>
      </h2>
      {body}
    </section>
  );
}
