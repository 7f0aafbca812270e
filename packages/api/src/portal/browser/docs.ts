// The API reference: Swagger UI (loaded before this module by a classic
// script) over /v1/openapi.json, in Japanese where the page is (the groups
// and the introduction: docs-ja.ts). The key field's value is kept in this
// module's memory only and added as X-API-Key to the try-it requests, which
// go to this same server. The generated curl shows $JPSP_API_KEY instead of
// the key, in double quotes, so that a shell expands it when pasted.
import { byId, el, label, setLabel } from './dom.ts';
import { LANG, wireLanguageSwitch } from './language.ts';
import { INFO_JA, TAGS_JA, TITLE_JA } from './docs-ja.ts';
import { asOpenApi30 } from './openapi-view.ts';

/** The little of Swagger UI's API used here (swagger-ui-dist has no types). */
interface SwaggerRequest {
  url: string;
  headers: Record<string, string>;
}
interface ImmutableMap {
  hasIn(path: string[]): boolean;
  setIn(path: string[], value: string): ImmutableMap;
}
interface SwaggerSystem {
  React: { createElement(type: unknown, props: Record<string, unknown> | null, ...children: unknown[]): unknown };
  fn: { requestSnippetGenerator_curl_bash(request: ImmutableMap): string };
}
type SwaggerUIBundle = (options: Record<string, unknown>) => unknown;
interface OpenApiDocument {
  info?: { title?: string; description?: string };
  tags?: { name: string; description?: string }[];
}

const KEY_HEADER = 'X-API-Key';
const KEY_SHOWN_AS = '$JPSP_API_KEY';

wireLanguageSwitch();

let apiKey = '';
const input = byId<HTMLInputElement>('api-key');
const state = byId('api-key-state');

function updateKey(): void {
  apiKey = input.value.trim();
  setLabel(state, apiKey ? 'apiKeyInUse' : 'apiKeyNone');
}
input.addEventListener('input', updateKey);
byId('api-key-clear').addEventListener('click', () => {
  input.value = '';
  updateKey();
  input.focus();
});
byId<HTMLFormElement>('key-form').addEventListener('submit', (event) => event.preventDefault());

/** Only requests to this server get the key. */
function addKey(request: SwaggerRequest): SwaggerRequest {
  if (apiKey && new URL(request.url, location.href).origin === location.origin) request.headers[KEY_HEADER] = apiKey;
  return request;
}

/**
 * The curl command of a try-it request, with the key replaced by the
 * variable a reader would use. Swagger UI quotes every header in single
 * quotes, in which a shell does not expand `$JPSP_API_KEY`: that one header
 * is written in double quotes instead (its value is our fixed text, nothing
 * a shell would read otherwise).
 */
export function curlCommand(system: SwaggerSystem, request: ImmutableMap): string {
  const masked = request.hasIn(['headers', KEY_HEADER]) ? request.setIn(['headers', KEY_HEADER], KEY_SHOWN_AS) : request;
  return system.fn.requestSnippetGenerator_curl_bash(masked).replace(`'${KEY_HEADER}: ${KEY_SHOWN_AS}'`, `"${KEY_HEADER}: ${KEY_SHOWN_AS}"`);
}

/** Swagger UI's curl box, showing `curlCommand` (same markup and classes, so its styles apply). */
function curlBox(_Original: unknown, system: SwaggerSystem) {
  const h = system.React.createElement;
  return (props: { request: ImmutableMap }) => {
    const command = curlCommand(system, props.request);
    const copy = () => void navigator.clipboard?.writeText(command).catch(() => undefined);
    return h(
      'div',
      { className: 'curl-command' },
      h('h4', null, 'Curl'),
      h('div', { className: 'copy-to-clipboard' }, h('button', { type: 'button', 'aria-label': 'Copy cURL command to clipboard', onClick: copy })),
      h('div', null, h('pre', { className: 'curl microlight', tabIndex: 0 }, h('code', null, command))),
    );
  };
}

/**
 * Parts of Swagger UI this page replaces: the key field above stands for its
 * Authorize dialog, and there is one server (this one), so no server picker
 * (and no empty box where they would be: docs.css).
 */
const portalPlugin = () => ({
  wrapComponents: {
    authorizeBtn: () => () => null,
    curl: curlBox,
  },
  components: { ServersContainer: () => null },
});

/** The document in the page's language: in Japanese, its introduction and group descriptions. */
function localised(document: OpenApiDocument): OpenApiDocument {
  if (LANG !== 'ja') return document;
  return {
    ...document,
    info: { ...document.info, title: TITLE_JA, description: INFO_JA },
    tags: document.tags?.map((tag) => ({ ...tag, description: TAGS_JA[tag.name] ?? tag.description })),
  };
}

async function start(): Promise<void> {
  const host = byId('swagger-ui');
  const swagger = (window as unknown as { SwaggerUIBundle?: SwaggerUIBundle }).SwaggerUIBundle;
  let document: OpenApiDocument;
  try {
    const response = await fetch('/v1/openapi.json', { headers: { accept: 'application/json' } });
    if (!response.ok || !swagger) throw new Error(String(response.status));
    document = (await response.json()) as OpenApiDocument;
  } catch {
    host.replaceChildren(el('p', { class: 'error' }, label('failed')));
    return;
  }
  swagger({
    spec: asOpenApi30(localised(document)),
    dom_id: '#swagger-ui',
    // No link to the public validator: the page talks to this server only.
    validatorUrl: null,
    // Anchors inside the operation buttons would nest interactive elements (an accessibility fault).
    deepLinking: false,
    tryItOutEnabled: true,
    persistAuthorization: false,
    defaultModelsExpandDepth: -1,
    // The groups first, each with its description; a group opens to its operations. Rendering
    // 76 operations at once was most of the page's time to first use.
    docExpansion: 'none',
    displayRequestDuration: true,
    requestInterceptor: addKey,
    plugins: [portalPlugin],
  });
}

/**
 * Swagger UI leaves its parameter fields unnamed and its example boxes out
 * of the tab order (axe: select-name, scrollable-region-focusable). As it
 * renders, each field is named after its parameter and each scrolling box
 * made focusable.
 */
function mendAccessibility(root: HTMLElement): void {
  const mend = () => {
    for (const field of root.querySelectorAll<HTMLElement>('tr[data-param-name] :is(select, input, textarea):not([aria-label])')) {
      field.setAttribute('aria-label', field.closest('tr')?.dataset.paramName ?? '');
    }
    for (const box of root.querySelectorAll<HTMLElement>('pre.microlight:not([tabindex]), .highlight-code pre:not([tabindex])')) box.tabIndex = 0;
  };
  new MutationObserver(mend).observe(root, { childList: true, subtree: true });
}

mendAccessibility(byId('swagger-ui'));
void start();
