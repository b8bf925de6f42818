// Two-step destructive actions: the button asks "Are you sure?" in place before it acts.
import { h } from './dom.js';

/** A delete button with its warning; `wire(root, action)` makes the second click run `action`. */
export const deleteButton = (label: string, warning: string) =>
  h`<div class="row" data-confirm><button type="button" data-step="ask">${label}</button><span hidden data-sure><span>Are you sure? This is permanent. ${warning}</span> <button type="button" class="primary" data-step="act">I am sure</button> <button type="button" data-step="cancel">Cancel</button></span></div>`;

export function wireDelete(root: HTMLElement, action: () => unknown): void {
  const box = root.querySelector<HTMLElement>('[data-confirm]');
  if (!box) return;
  box.onclick = (event) => {
    const step = (event.target as HTMLElement).dataset.step;
    if (!step) return;
    (box.querySelector('[data-sure]') as HTMLElement).hidden = step !== 'ask';
    if (step === 'act') action();
  };
}
