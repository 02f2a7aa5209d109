import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { html } from "../../src/modules/oauth/pages/html.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("the pages' HTML templates", () => {
  test("every interpolated text is escaped for element content and quoted attributes", () => {
    const hostile = `<script>alert("x")</script>' onmouseover='y' \`z\` &amp;`;
    const out = html`<p title="${hostile}">${hostile}</p>`.markup;
    expect(out).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;y&#39; &#96;z&#96; &amp;amp;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;y&#39; &#96;z&#96; &amp;amp;</p>',
    );
  });

  test("markup built by the template is kept as it is, once; lists are joined; false, null and undefined are nothing", () => {
    const item = (s: string) => html`<li>${s}</li>`;
    const none: string | undefined = undefined;
    expect(html`<ul>${["a<b", "c"].map(item)}</ul>${false}${null}${none}${3}`.markup).toBe("<ul><li>a&lt;b</li><li>c</li></ul>3");
    expect(html`${html`${"<i>"}`}`.markup).toBe("&lt;i&gt;");
  });
});
