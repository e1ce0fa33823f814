/**
 * What a browser's fetch does with Sift's session for the worker, in Node: the HttpOnly cookie a
 * sign-in set goes along with every same-origin request (and Chromium says so in
 * Sec-Fetch-Site). The worker itself never sees the token.
 */
export function browserFetch(origin: string, session: () => string | null): typeof fetch {
  return (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const headers = new Headers(init?.headers);
    const token = session();
    if (url.origin === origin && token && init?.credentials !== 'omit') {
      headers.set('cookie', `sift_token=${token}`);
      headers.set('sec-fetch-site', 'same-origin');
    }
    return fetch(input, { ...init, headers });
  };
}
