/** The sandbox's consent page: plain HTML, no script, one form (the platform's "Authorize app?" dialog). */

export type ConsentIdentity = { id: string; label: string };

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function consentPage(input: {
  network: string;
  scopes: string[];
  identities: ConsentIdentity[];
  /** The identity chosen by default (a reconnect's hint), or 'new'. */
  selected: string;
}): Response {
  const options = [...input.identities, { id: 'new', label: 'A new sandbox user' }]
    .map(
      (identity) => `
        <label class="choice">
          <input type="radio" name="account" value="${escape(identity.id)}"${identity.id === input.selected ? ' checked' : ''}>
          ${escape(identity.label)}
        </label>`,
    )
    .join('');
  const html = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Authorize Semel — ${escape(input.network)} sandbox</title>
  <style>
    body { font-family: system-ui, sans-serif; background: #f8fafc; color: #0f172a; margin: 0; }
    main { max-width: 28rem; margin: 4rem auto; background: #fff; padding: 2rem; border-radius: .5rem; box-shadow: 0 1px 3px #0002; }
    .choice { display: block; margin: .4rem 0; }
    button { font: inherit; padding: .5rem 1rem; border-radius: .375rem; border: 1px solid #cbd5e1; margin-right: .5rem; cursor: pointer; }
    button[value=authorize] { background: #4338ca; color: #fff; border-color: #4338ca; }
    button:focus-visible, input:focus-visible { outline: 2px solid #4338ca; outline-offset: 2px; }
  </style>
</head>
<body>
  <main>
    <h1>Authorize Semel to use your ${escape(input.network)} sandbox account?</h1>
    <p>This is the built-in sandbox network, not the real ${escape(input.network)}. Semel asks for:</p>
    <ul>${input.scopes.map((s) => `<li>${escape(s)}</li>`).join('')}</ul>
    <form method="post">
      <fieldset>
        <legend>Continue as</legend>${options}
      </fieldset>
      <p>
        <button type="submit" name="decision" value="authorize">Authorize Semel</button>
        <button type="submit" name="decision" value="deny">Deny</button>
      </p>
    </form>
  </main>
</body>
</html>`;
  return new Response(html, {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/** An authorize request that cannot be sent back to the client (unknown client or redirect URI): shown, never redirected. */
export function errorPage(status: number, message: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization error</title></head>
<body><main><h1>Authorization error</h1><p>${escape(message)}</p></main></body></html>`;
  return new Response(html, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}
