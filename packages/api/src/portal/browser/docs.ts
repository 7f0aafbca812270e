// The API reference: Swagger UI (loaded before this module by a classic
// script) over /v1/openapi.json. The key field's value is kept in this
// module's memory only and added as X-API-Key to the try-it requests, which go
// to this same server. The generated curl shows $JPSP_API_KEY instead of the
// key, so the key never appears on the page.
import { byId, setLabel } from './dom.ts';

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
  React: { createElement(type: unknown, props: Record<string, unknown>): unknown };
}
type Component = (props: Record<string, unknown>) => unknown;
type SwaggerUIBundle = (options: Record<string, unknown>) => unknown;

const KEY_HEADER = 'X-API-Key';
const KEY_SHOWN_AS = '$JPSP_API_KEY';

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

/** Swagger UI's curl display, with the key replaced by the variable a reader would use. */
function curlWithoutKey(Original: Component, system: SwaggerSystem): Component {
  return (props) => {
    const request = props.request as ImmutableMap | undefined;
    const masked = request?.hasIn(['headers', KEY_HEADER]) ? request.setIn(['headers', KEY_HEADER], KEY_SHOWN_AS) : request;
    return system.React.createElement(Original, { ...props, request: masked });
  };
}

/**
 * Parts of Swagger UI this page replaces: the key field above stands for its
 * Authorize dialog, and there is one server (this one), so no server picker.
 */
const portalPlugin = () => ({
  wrapComponents: {
    authorizeBtn: () => () => null,
    curl: curlWithoutKey,
  },
  components: { ServersContainer: () => null },
});

const swagger = (window as unknown as { SwaggerUIBundle?: SwaggerUIBundle }).SwaggerUIBundle;
if (swagger) {
  swagger({
    url: '/v1/openapi.json',
    dom_id: '#swagger-ui',
    // No link to the public validator: the page talks to this server only.
    validatorUrl: null,
    // Anchors inside the operation buttons would nest interactive elements (an accessibility fault).
    deepLinking: false,
    tryItOutEnabled: true,
    persistAuthorization: false,
    defaultModelsExpandDepth: -1,
    docExpansion: 'list',
    displayRequestDuration: true,
    requestInterceptor: addKey,
    plugins: [portalPlugin],
  });
} else {
  byId('swagger-ui').textContent = 'Swagger UI could not be loaded.';
}
