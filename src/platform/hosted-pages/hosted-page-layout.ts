/**
 * The frame and styles every hosted page shares (the applicant's session page, the bank-statement,
 * credit-terms and Parent Connect pages): one look, static HTML without script. Every interpolation goes
 * through hono/html, which escapes it.
 */
import { html } from 'hono/html';

type Html = ReturnType<typeof html>;

const STYLE = html`<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f8; color: #1d2330; }
  main { max-width: 34rem; margin: 3rem auto; background: #fff; padding: 2rem 2.25rem; border-radius: 10px; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
  h1 { font-size: 1.35rem; margin: 0 0 .25rem; } h2 { font-size: 1.05rem; margin: 1.6rem 0 .5rem; } .org { color: #5a6275; margin: 0 0 1.5rem; }
  .status { display: inline-block; padding: .1rem .5rem; border-radius: 4px; background: #eef0f6; font-weight: 600; }
  .warn { background: #fff4e0; border: 1px solid #f0c36d; padding: .6rem .8rem; border-radius: 6px; }
  .error { background: #fdecec; border: 1px solid #f3b7b7; padding: .6rem .8rem; border-radius: 6px; }
  ul { list-style: none; padding: 0; } li { margin: .6rem 0; } form { margin: 0; }
  label { display: block; margin: .4rem 0; }
  input[type=text], input[type=email], input[type=date], select, textarea { display: block; width: 100%; box-sizing: border-box; padding: .35rem .5rem; margin-top: .2rem; border: 1px solid #8a91a3; border-radius: 5px; font: inherit; }
  fieldset { border: 1px solid #e3e6ee; border-radius: 6px; margin: .6rem 0; } legend { font-weight: 600; }
  .result { background: #e8f6ee; border: 1px solid #9fd6b5; padding: .6rem .8rem; border-radius: 6px; } .result h2, .error h2 { margin-top: 0; }
  ol.steps { padding-left: 1.4rem; } ol.steps li { margin: .2rem 0; } pre { white-space: pre-wrap; font-size: .8rem; }
  details.qa { margin-top: 2rem; border-top: 1px solid #e3e6ee; padding-top: .8rem; }
  label.choice { padding: .5rem .8rem; border: 1px solid #c9cedb; border-radius: 6px; background: #fafbfd; cursor: pointer; }
  label.choice small { display: inline; }
  button { width: 100%; text-align: left; padding: .6rem .8rem; margin: .3rem 0; border: 1px solid #c9cedb; border-radius: 6px; background: #fafbfd; color: inherit; cursor: pointer; font: inherit; }
  button:hover { background: #eef2ff; } button.primary { background: #1f4fd1; color: #fff; border-color: #1f4fd1; }
  button.primary:hover { background: #1a42b0; } button.primary small { color: #fff; }
  button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid #f5b700; outline-offset: 1px; }
  table { border-collapse: collapse; width: 100%; } td, th { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #e3e6ee; } .num { text-align: right; }
  small { display: block; color: #5a6275; margin-top: .2rem; } code { background: #f3f4f8; padding: 0 .25rem; border-radius: 3px; }
  footer { color: #5a6275; font-size: .8rem; margin-top: 2rem; }
</style>`;

/** A whole hosted page: the shared head and frame around the page's own body, with its footer line. */
export function hostedPage(title: string, body: Html | string, footer: Html | string): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>${STYLE}</head>
<body><main>
${body}
<footer>${footer}</footer>
</main></body></html>`;
}
