import { useMemo, useState } from 'preact/hooks';
import { useApiClient } from '../api/api-context';
import type { TreeEntry } from '../api/api-types';
import { listCheckpointDirectory } from '../api/runtimectl-api';
import { ErrorAlert } from '../components/error-alert';
import { usePageTitle } from '../components/page-title';
import { useApiCall } from '../components/use-api-call';
import { joinPath, pathCrumbs, sortDirectoryEntries } from '../files/directory-entries';
import { DirectoryTable } from '../files/directory-table';
import { FileContents } from '../files/file-contents';
import { shortId } from '../format/short-id';
import { hrefs } from '../router/parse-route';

/** A checkpoint's files from its content manifest: browsing never restores anything. */
export function FilesView({ checkpointId, path }: { checkpointId: string; path: string }) {
  usePageTitle(`Files of checkpoint ${shortId(checkpointId)}`);
  const client = useApiClient();
  const listing = useApiCall((signal) => listCheckpointDirectory(client, checkpointId, path, signal), [client, checkpointId, path]);
  const entries = useMemo(() => sortDirectoryEntries(listing.data ?? []), [listing.data]);
  const [openFile, setOpenFile] = useState<TreeEntry | null>(null);
  const crumbs = pathCrumbs(path);

  return (
    <>
      <h1>Files of checkpoint {shortId(checkpointId)}</h1>
      <p>
        Checkpoint <code>{checkpointId}</code>, read from its content manifest and snapshot; nothing is restored.
      </p>
      <nav aria-label="Path" class="breadcrumb">
        <ol>
          {crumbs.map((crumb, index) => (
            <li key={crumb.path}>
              {index === crumbs.length - 1 ? (
                <span aria-current="page">{crumb.name}</span>
              ) : (
                <a href={hrefs.files(checkpointId, crumb.path)}>{crumb.name}</a>
              )}
            </li>
          ))}
        </ol>
      </nav>
      <ErrorAlert error={listing.error} context="Listing the directory" />
      {listing.loading && !listing.data ? <p>Loading the directory…</p> : null}
      {listing.data ? (
        entries.length === 0 ? (
          <p>This directory is empty.</p>
        ) : (
          <DirectoryTable checkpointId={checkpointId} path={path} entries={entries} selectedName={openFile?.name ?? null} onOpenFile={setOpenFile} />
        )
      ) : null}
      {openFile ? <FileContents key={openFile.name} checkpointId={checkpointId} path={joinPath(path, openFile.name)} entry={openFile} /> : null}
    </>
  );
}
