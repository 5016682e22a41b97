/** A file's bytes as the model and MCP clients take them: text when it is UTF-8, else base64. */
export interface DecodedFile {
  content: string;
  encoding: 'utf-8' | 'base64';
}

/**
 * Bytes as text when they are UTF-8 and read back to the same bytes (a BOM or an invalid sequence
 * would not), else base64: text the model can read as it is, and nothing altered on the way.
 */
export function decodedFile(bytes: Uint8Array): DecodedFile {
  const asText = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return Buffer.from(asText, 'utf8').equals(Buffer.from(bytes))
    ? { content: asText, encoding: 'utf-8' }
    : { content: Buffer.from(bytes).toString('base64'), encoding: 'base64' };
}

/** The extensions MCP clients render or highlight differently; any other file is plain text or bytes. */
const MIME_TYPES: Record<string, string> = {
  md: 'text/markdown',
  html: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
};

/** A file's MIME type by its extension, else `text/plain` for text and `application/octet-stream` for bytes. */
export function mimeTypeOf(path: string, encoding: DecodedFile['encoding']): string {
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension && MIME_TYPES[extension]) ?? (encoding === 'utf-8' ? 'text/plain' : 'application/octet-stream');
}
