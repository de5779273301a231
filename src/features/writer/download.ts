/** Save text as a Markdown file through a temporary object URL. */
export function downloadMarkdown(text: string, prompt: string): void {
  const title = prompt.split('\n')[0]!.trim().slice(0, 60) || 'writing';
  const slug =
    title
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '') || 'writing';
  const url = URL.createObjectURL(
    new Blob([text.endsWith('\n') ? text : `${text}\n`], { type: 'text/markdown;charset=utf-8' }),
  );
  const a = document.createElement('a');
  a.href = url;
  a.download = `${slug}.md`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
