// The landing page: copy buttons on the examples.
import { setLabel } from './dom.ts';
import { wireLanguageSwitch } from './language.ts';

wireLanguageSwitch();

for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const code = document.getElementById(button.dataset.copy ?? '');
    if (!code) return;
    try {
      await navigator.clipboard.writeText(code.textContent ?? '');
    } catch {
      // No clipboard access (an insecure origin): select the text for a manual copy.
      const range = document.createRange();
      range.selectNodeContents(code);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      return;
    }
    setLabel(button, 'copied');
    setTimeout(() => setLabel(button, 'copy'), 2000);
  });
}
