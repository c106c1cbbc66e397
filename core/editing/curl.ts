import { parse } from 'shell-quote';
import { FLOW_SECRET_NAME } from '../model/secrets';
import { namesSecret } from '../nodes/http/send-request';

/** What a pasted cURL command sets of an HTTP request node (its config keys). */
export interface CurlRequest {
  method: string;
  url: string;
  /** The URL's query as the node's Query parameters, decoded: the node encodes each when it sends. */
  query: { name: string; value: string }[];
  headers: { name: string; value: string }[];
  /** `-u user:password` as the node's Basic auth, made into a header when it runs (so a `$SECRET` in it works). */
  auth: 'none' | 'basic';
  basicUser: string;
  basicPassword: string;
  /** `-F` as a multipart form, `-d name=value&…` as a URL-encoded one (its fields decoded), other data as text. */
  bodyType: 'text' | 'form' | 'multipart';
  body: string;
  form: { name: string; value: string }[];
}

export type CurlReading =
  | {
      request: CurlRequest;
      /** Options of the command the node does not do, each said with why. */
      leftOut: string[];
      /** What was changed on the way in: `$TOKEN` read as `{{secrets.TOKEN}}`. */
      notes: string[];
    }
  | { problem: string };

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Options that change nothing the node sends: fetch follows redirects and decompresses, output is not a file. */
const HARMLESS = new Set(
  ['-s', '--silent', '-S', '--show-error', '-L', '--location', '--compressed', '-i', '--include'].concat([
    '-v',
    '--verbose',
    '-f',
    '--fail',
    '-g',
    '--globoff',
  ]),
);
/** Options the node does not do that take a value (skipped with it, and said). */
const LEFT_OUT_WITH_VALUE: Record<string, string> = {
  '-o': 'the node gives the response as its output, not a file',
  '--output': 'the node gives the response as its output, not a file',
  '-m': "set the node's time limit instead",
  '--max-time': "set the node's time limit instead",
  '--connect-timeout': "set the node's time limit instead",
  '-x': 'Flowbench sends every request through the proxy HTTPS_PROXY or HTTP_PROXY names, not one of its own',
  '--proxy': 'Flowbench sends every request through the proxy HTTPS_PROXY or HTTP_PROXY names, not one of its own',
  '-T': 'the node uploads no file',
  '--upload-file': 'the node uploads no file',
  '--cacert': 'the node checks certificates against the system',
  '--cert': 'the node sends no client certificate',
  '-w': 'the node writes out nothing',
  '--write-out': 'the node writes out nothing',
  '--retry': "set the node's attempts instead",
};
const LEFT_OUT: Record<string, string> = {
  '-k': 'the node always checks the server’s certificate',
  '--insecure': 'the node always checks the server’s certificate',
  '-I': 'the node sends no HEAD request',
  '--head': 'the node sends no HEAD request',
};
/** Options that add a part to a multipart form (`--form-string` takes its value as it is). */
const FORM_OPTIONS = new Set(['-F', '--form', '--form-string']);
/** Short options that take a value, for `-XPOST` and `-sX POST`. */
const SHORT_WITH_VALUE = new Set(['X', 'H', 'd', 'u', 'A', 'e', 'b', 'o', 'm', 'x', 'F', 'T', 'w']);

/**
 * Reads a cURL command as a browser's "Copy as cURL" or an API's docs give it
 * (n8n's Import cURL): method, URL, query parameters, headers, Basic auth
 * (`-u`) and body, with `-A`, `-e`, `-b`, `--json`, `-G` and
 * `--data-urlencode` turned into what curl would send. A shell variable (`$TOKEN`, the way docs keep keys out of commands)
 * becomes `{{secrets.TOKEN}}`, said in `notes`; options the node does not do
 * are listed in `leftOut`, never dropped unsaid.
 */
export function readCurl(command: string): CurlReading {
  // A command split over lines with backslashes, as docs print it, is one line to a shell.
  const words = parse(command.replace(/\\\r?\n/g, ' ').trim(), (name) => `$${name}`);
  if (!words.every((w): w is string => typeof w === 'string')) {
    return { problem: 'the command uses a pipe, a redirection or a glob: paste the curl command alone' };
  }
  if (words[0] !== 'curl') return { problem: 'a cURL command starts with curl' };
  const leftOut: string[] = [];
  const headers: { name: string; value: string }[] = [];
  const data: string[] = [];
  const parts: { name: string; value: string }[] = [];
  let method: string | undefined;
  let url: string | undefined;
  let asQuery = false;
  let json = false;
  let credentials: string | undefined;
  const options = expandShortOptions(words.slice(1));
  for (let i = 0; i < options.length; i++) {
    const [flag, attached] = splitLongOption(options[i] as string);
    const value = (): string => attached ?? options[++i] ?? '';
    if (!flag.startsWith('-') || flag === '-') {
      if (url === undefined) url = flag;
      else leftOut.push(`${flag}: the node calls one URL`);
    } else if (flag === '-X' || flag === '--request') method = value().toUpperCase();
    else if (flag === '--url') url = value();
    else if (flag === '-H' || flag === '--header') {
      const line = value();
      const colon = line.indexOf(':');
      if (colon > 0) headers.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() });
      else leftOut.push(`-H ${line}: not a "Name: value" header`);
    } else if (['-d', '--data', '--data-raw', '--data-binary', '--data-ascii'].includes(flag)) {
      const text = value();
      if (text.startsWith('@') && flag !== '--data-raw')
        leftOut.push(`${flag} ${text}: paste the file's content as the body`);
      else data.push(text);
    } else if (flag === '--data-urlencode') data.push(urlEncoded(value()));
    else if (FORM_OPTIONS.has(flag)) {
      const part = formPart(flag, value());
      if ('name' in part) parts.push(part);
      else leftOut.push(part.leftOut);
    } else if (flag === '--json') {
      data.push(value());
      json = true;
    } else if (flag === '-G' || flag === '--get') asQuery = true;
    else if (flag === '-u' || flag === '--user') credentials = value();
    else if (flag === '-A' || flag === '--user-agent') headers.push({ name: 'User-Agent', value: value() });
    else if (flag === '-e' || flag === '--referer') headers.push({ name: 'Referer', value: value() });
    else if (flag === '-b' || flag === '--cookie') {
      const cookie = value();
      if (cookie.includes('=')) headers.push({ name: 'Cookie', value: cookie });
      else leftOut.push(`${flag} ${cookie}: the node reads no cookie file`);
    } else if (HARMLESS.has(flag)) continue;
    else if (flag in LEFT_OUT_WITH_VALUE) leftOut.push(`${flag} ${value()}: ${LEFT_OUT_WITH_VALUE[flag]}`);
    else if (flag in LEFT_OUT) leftOut.push(`${flag}: ${LEFT_OUT[flag]}`);
    else leftOut.push(`${flag}: not an option the node knows`);
  }
  if (url === undefined || url === '') return { problem: 'the command names no URL' };
  if (parts.length > 0 && data.length > 0)
    return { problem: 'the command sends both -d data and a -F form: curl refuses that too; keep one of them' };
  const hasType = () => headers.some((h) => h.name.toLowerCase() === 'content-type');
  if (json) {
    if (!hasType()) headers.push({ name: 'Content-Type', value: 'application/json' });
    if (!headers.some((h) => h.name.toLowerCase() === 'accept'))
      headers.push({ name: 'Accept', value: 'application/json' });
  }
  let body = data.join('&');
  if (asQuery && body !== '') {
    url = `${url}${url.includes('?') ? '&' : '?'}${body}`;
    body = '';
  }
  const typeHeader = headers.findIndex((h) => h.name.toLowerCase() === 'content-type');
  const typed = (media: string) => headers[typeHeader]?.value.toLowerCase().split(';')[0]?.trim() === media;
  // The node's form bodies say their own Content-Type: one the command names alike is left to them.
  const formFromData = body !== '' && !json && (typeHeader === -1 || typed('application/x-www-form-urlencoded'));
  const fields = formFromData ? formFields(body) : undefined;
  const bodyType = parts.length > 0 ? 'multipart' : fields ? 'form' : 'text';
  if (bodyType !== 'text' && (typed('multipart/form-data') || typed('application/x-www-form-urlencoded')))
    headers.splice(typeHeader, 1);
  if (fields) body = '';
  // curl sends other -d data as a form unless a header says otherwise; the node would call it JSON or text.
  if (body !== '' && !hasType()) headers.push({ name: 'Content-Type', value: 'application/x-www-form-urlencoded' });
  const sends = body !== '' || bodyType !== 'text';
  method ??= sends ? 'POST' : 'GET';
  if (!METHODS.includes(method)) {
    leftOut.push(`-X ${method}: the node sends ${METHODS.join(', ')}; it sends ${sends ? 'POST' : 'GET'}`);
    method = sends ? 'POST' : 'GET';
  }
  const notes: string[] = [];
  const secrets = (text: string) => asSecrets(text, notes);
  const split = splitQuery(url);
  const colon = credentials?.indexOf(':') ?? -1;
  const [user, password] =
    credentials === undefined
      ? ['', '']
      : colon === -1
        ? [credentials, '']
        : [credentials.slice(0, colon), credentials.slice(colon + 1)];
  if (credentials !== undefined && colon === -1) notes.push('curl would ask for the password: write it under Password');
  const request: CurlRequest = {
    method,
    url: secrets(split.url),
    query: split.query.map((q) => ({ name: q.name, value: secrets(q.value) })),
    headers: headers.map((h) => ({ name: h.name, value: secrets(h.value) })),
    auth: credentials === undefined ? 'none' : 'basic',
    basicUser: secrets(user),
    basicPassword: secrets(password),
    bodyType,
    body: secrets(body),
    form: (fields ?? parts).map((f) => ({ name: f.name, value: secrets(f.value) })),
  };
  if (request.basicPassword !== '' && !request.basicPassword.includes('{{secrets.')) {
    notes.push(
      'the Basic auth password is held as written, stored and exported with the flow: keep it on the Secrets page and write {{secrets.name}} instead',
    );
  }
  for (const [what, item] of [
    ...request.headers.map((h) => ['header', h] as const),
    ...request.form.map((f) => ['form field', f] as const),
  ]) {
    if (namesSecret(item.name) && !item.value.includes('{{secrets.')) {
      notes.push(
        `the ${item.name} ${what} holds its value as written, stored and exported with the flow: keep it on the Secrets page and write {{secrets.name}} instead`,
      );
    }
  }
  return { request, leftOut, notes: [...new Set(notes)] };
}

/**
 * The URL's query as name and value pairs, decoded (`+` a space, as servers
 * read a query), in their order, before any `#fragment`; the node sends them
 * encoded, so a `{{…}}` written into a value later arrives whole. A query the
 * pairs would not send alike (a part with no `=`, a `%` that decodes to
 * nothing) stays in the URL as written.
 */
function splitQuery(url: string): { url: string; query: { name: string; value: string }[] } {
  const hash = url.indexOf('#');
  const [base, fragment] = hash === -1 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  const at = base.indexOf('?');
  if (at === -1) return { url, query: [] };
  const parts = base
    .slice(at + 1)
    .split('&')
    .filter((part) => part !== '');
  const query = parts.some((part) => part.indexOf('=') < 1) ? undefined : decodedPairs(parts);
  return query ? { url: `${base.slice(0, at)}${fragment}`, query } : { url, query: [] };
}

/**
 * `name=value` parts (each with its `=`) decoded as a server reads a query or
 * a form (`+` a space); undefined when a `%` decodes to nothing.
 */
function decodedPairs(parts: readonly string[]): { name: string; value: string }[] | undefined {
  const decode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
  try {
    return parts.map((part) => {
      const at = part.indexOf('=');
      return { name: decode(part.slice(0, at)), value: decode(part.slice(at + 1)) };
    });
  } catch {
    return undefined;
  }
}

/** `-sSL` as `-s -S -L`, and `-XPOST` as `-X POST`. */
function expandShortOptions(words: readonly string[]): string[] {
  return words.flatMap((word) => {
    if (!/^-[A-Za-z]/.test(word) || word.length === 2) return [word];
    const letters = word.slice(1);
    const out: string[] = [];
    for (let i = 0; i < letters.length; i++) {
      const letter = letters[i] as string;
      out.push(`-${letter}`);
      if (SHORT_WITH_VALUE.has(letter)) {
        if (i + 1 < letters.length) out.push(letters.slice(i + 1));
        break;
      }
    }
    return out;
  });
}

/** `--header=X: y` as the flag and its value. */
function splitLongOption(word: string): [string, string | undefined] {
  if (!word.startsWith('--')) return [word, undefined];
  const at = word.indexOf('=');
  return at === -1 ? [word, undefined] : [word.slice(0, at), word.slice(at + 1)];
}

/**
 * One `-F name=value` part as a text field; a file (`@path`, `<path`) or a
 * part with its own type or file name (`;type=…`) is left out, said. With
 * `--form-string` the value is taken as it is.
 */
function formPart(flag: string, text: string): { name: string; value: string } | { leftOut: string } {
  const at = text.indexOf('=');
  if (at < 1) return { leftOut: `${flag} ${text}: not a name=value form field` };
  const [name, value] = [text.slice(0, at), text.slice(at + 1)];
  if (flag === '--form-string') return { name, value };
  if (value.startsWith('@') || value.startsWith('<')) return { leftOut: `${flag} ${text}: the node uploads no file` };
  if (/;\s*(type|filename|headers|encoder)=/.test(value))
    return { leftOut: `${flag} ${text}: the node sends text fields, with no type or file name of their own` };
  return { name, value };
}

/**
 * `-d a=1&b=2` as the fields it sends, decoded (`+` a space), when the node's
 * form, encoding them again, sends what curl would: each part a name and a
 * value of characters a form leaves or writes encoded (a `$TOKEN` in a value
 * too, a secret to come). Other data (JSON, text, `a=b=c`) is undefined: kept as text.
 */
function formFields(body: string): { name: string; value: string }[] | undefined {
  const parts = body.split('&');
  if (!parts.every((part) => /^[\w.~%+*\-[\]]+=[\w.~%+*\-[\]$]*$/.test(part))) return undefined;
  return decodedPairs(parts);
}

/** `--data-urlencode name=value`: the value encoded, as curl sends it. */
function urlEncoded(text: string): string {
  const at = text.indexOf('=');
  if (at === -1) return encodeURIComponent(text);
  return `${text.slice(0, at + 1)}${encodeURIComponent(text.slice(at + 1))}`;
}

/** `$TOKEN` (and `${TOKEN}`, which the split reads alike) as `{{secrets.TOKEN}}`, each said in `notes`. */
function asSecrets(text: string, notes: string[]): string {
  return text.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, name: string) => {
    if (!FLOW_SECRET_NAME.test(name)) return whole;
    notes.push(`$${name} became {{secrets.${name}}}: set it on the Secrets page`);
    return `{{secrets.${name}}}`;
  });
}
