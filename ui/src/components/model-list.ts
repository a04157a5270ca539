import { html, nothing } from 'lit';
import { shortModel } from '../format.ts';

/**
 * A session's models as the server orders them (the dearest first): the first two, the rest in a "+N" tag and the
 * tooltip, so a session that used six models does not widen the table.
 */
export function modelList(models: string[]) {
  const more = models.length - 2;
  return html`<span title=${models.join('\n')}>${models.slice(0, 2).map(shortModel).join(', ')}${more > 0 ? html` <span class="tag">+${more}</span>` : nothing}</span>`;
}
