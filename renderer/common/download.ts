// Saving text the backend produced as a file the user downloads (labels.jsonl, labelling functions).

/** Offers `text` as a download named `filename`. */
export function downloadText(text: string, type: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  // The download has taken its copy by the next task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
