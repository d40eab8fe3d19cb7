/**
 * Saves text the page already holds as a file: a Blob behind an object URL
 * and a link with `download`. Nothing is fetched and no script or style is
 * inlined, so it works under the page's Content-Security-Policy (a blob URL
 * that is downloaded is neither a connection nor a navigation it governs).
 */
export function downloadFile(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click has run; the URL is released after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
