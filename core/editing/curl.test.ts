import { describe, expect, it } from 'vitest';
import { readCurl } from './curl';

describe('reading a pasted cURL command (n8n’s Import cURL)', () => {
  it('reads a browser’s Copy as cURL: method, URL, headers and a JSON body, split over lines', () => {
    const reading = readCurl(`curl 'https://api.example/v1/issues?state=open' \\
  -X POST \\
  -H 'accept: application/json' \\
  -H 'content-type: application/json' \\
  --data-raw '{"title":"Bug","labels":["a b"]}' \\
  --compressed -sSL`);
    expect(reading).toEqual({
      request: {
        method: 'POST',
        url: 'https://api.example/v1/issues',
        query: [{ name: 'state', value: 'open' }],
        headers: [
          { name: 'accept', value: 'application/json' },
          { name: 'content-type', value: 'application/json' },
        ],
        auth: 'none',
        basicUser: '',
        basicPassword: '',
        bodyType: 'text',
        body: '{"title":"Bug","labels":["a b"]}',
        form: [],
      },
      leftOut: [],
      notes: [],
    });
  });

  it('turns -u, -A, --json, -G and --data-urlencode into what curl sends, and $TOKEN into a secret', () => {
    const reading = readCurl(
      'curl -u ada:s3cret -A flowbench/1 -H "Authorization: Bearer $GITHUB_TOKEN" --json \'{"q":1}\' https://api.example/x',
    );
    expect(reading).toMatchObject({
      request: {
        method: 'POST',
        auth: 'basic',
        basicUser: 'ada',
        basicPassword: 's3cret',
        headers: [
          { name: 'User-Agent', value: 'flowbench/1' },
          { name: 'Authorization', value: 'Bearer {{secrets.GITHUB_TOKEN}}' },
          { name: 'Content-Type', value: 'application/json' },
          { name: 'Accept', value: 'application/json' },
        ],
        body: '{"q":1}',
      },
      notes: [
        '$GITHUB_TOKEN became {{secrets.GITHUB_TOKEN}}: set it on the Secrets page',
        'the Basic auth password is held as written, stored and exported with the flow: keep it on the Secrets page and write {{secrets.name}} instead',
      ],
    });
    // As API docs write it: the node makes the header when it runs, from the secrets (base64 of the names would be wrong).
    expect(readCurl('curl -u $TWILIO_SID:$TWILIO_TOKEN https://api.twilio.example/x')).toMatchObject({
      request: {
        auth: 'basic',
        basicUser: '{{secrets.TWILIO_SID}}',
        basicPassword: '{{secrets.TWILIO_TOKEN}}',
        headers: [],
      },
      notes: [
        '$TWILIO_SID became {{secrets.TWILIO_SID}}: set it on the Secrets page',
        '$TWILIO_TOKEN became {{secrets.TWILIO_TOKEN}}: set it on the Secrets page',
      ],
    });
    expect(readCurl("curl -u 'zoë' https://x")).toMatchObject({
      request: { auth: 'basic', basicUser: 'zoë', basicPassword: '' },
      notes: ['curl would ask for the password: write it under Password'],
    });
    expect(readCurl("curl -G https://api.example/search --data-urlencode 'q=cats & dogs' -d page=2")).toMatchObject({
      request: {
        method: 'GET',
        url: 'https://api.example/search',
        query: [
          { name: 'q', value: 'cats & dogs' },
          { name: 'page', value: '2' },
        ],
        body: '',
        headers: [],
      },
    });
    // Data with no Content-Type goes as a form, as curl sends it: the node would otherwise say text/plain.
    expect(readCurl('curl -d "a=1 2" -XPUT https://api.example/x')).toMatchObject({
      request: {
        method: 'PUT',
        bodyType: 'text',
        body: 'a=1 2',
        headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
      },
    });
  });

  it('gives the URL’s query as Query parameters, decoded, a $KEY in one as a secret; one they would send otherwise stays', () => {
    expect(
      readCurl("curl 'https://api.example/search?q=caf%C3%A9+au+lait&key=$MAPS_KEY&tags=a%26b#results'"),
    ).toMatchObject({
      request: {
        url: 'https://api.example/search#results',
        query: [
          { name: 'q', value: 'café au lait' },
          { name: 'key', value: '{{secrets.MAPS_KEY}}' },
          { name: 'tags', value: 'a&b' },
        ],
      },
      notes: ['$MAPS_KEY became {{secrets.MAPS_KEY}}: set it on the Secrets page'],
    });
    // `?debug` alone would be sent as `debug=`, and `%ZZ` decodes to nothing: the query is left as written.
    for (const url of ['https://x.example/a?debug&page=2', 'https://x.example/a?q=%ZZ'])
      expect(readCurl(`curl '${url}'`)).toMatchObject({ request: { url, query: [] } });
  });

  it('reads -d name=value data as a URL-encoded form and -F as a multipart one, their fields decoded', () => {
    // An OAuth token request as API docs write it.
    expect(
      readCurl(
        'curl https://auth.example/token -d grant_type=client_credentials -d client_id=app%201 -d "client_secret=$APP_SECRET" -d scope=read+write',
      ),
    ).toMatchObject({
      request: {
        method: 'POST',
        bodyType: 'form',
        body: '',
        headers: [],
        form: [
          { name: 'grant_type', value: 'client_credentials' },
          { name: 'client_id', value: 'app 1' },
          { name: 'client_secret', value: '{{secrets.APP_SECRET}}' },
          { name: 'scope', value: 'read write' },
        ],
      },
      notes: ['$APP_SECRET became {{secrets.APP_SECRET}}: set it on the Secrets page'],
    });
    // The type it names is the form's own: left to the node, which sets it.
    expect(
      readCurl("curl -H 'Content-Type: application/x-www-form-urlencoded; charset=utf-8' -d q=1 https://x.example"),
    ).toMatchObject({ request: { bodyType: 'form', headers: [], form: [{ name: 'q', value: '1' }] } });
    // JSON, or data a form would send otherwise, stays the text curl sends.
    for (const data of ['{"a":"b=c"}', 'a=b=c', 'note=a b'])
      expect(readCurl(`curl -d '${data}' https://x.example`)).toMatchObject({
        request: { bodyType: 'text', body: data, form: [] },
      });
    expect(
      readCurl(
        "curl -F 'text=Hello there' -F lang=en --form-string 'raw=@home' -F file=@a.png -F 'kind=x;type=text/csv' https://x.example/upload",
      ),
    ).toMatchObject({
      request: {
        method: 'POST',
        bodyType: 'multipart',
        body: '',
        form: [
          { name: 'text', value: 'Hello there' },
          { name: 'lang', value: 'en' },
          { name: 'raw', value: '@home' },
        ],
      },
      leftOut: [
        '-F file=@a.png: the node uploads no file',
        '-F kind=x;type=text/csv: the node sends text fields, with no type or file name of their own',
      ],
    });
    expect(readCurl('curl -F password=hunter2 https://x.example')).toMatchObject({
      notes: [
        'the password form field holds its value as written, stored and exported with the flow: keep it on the Secrets page and write {{secrets.name}} instead',
      ],
    });
    expect(readCurl('curl -d a=1 -F b=2 https://x.example')).toEqual({
      problem: 'the command sends both -d data and a -F form: curl refuses that too; keep one of them',
    });
  });

  it('says what it leaves out, and refuses what is not one curl command', () => {
    const reading = readCurl(
      'curl -k -o out.json -F file=@a.png --max-time 5 -X HEAD https://api.example/x --frobnicate',
    );
    expect(reading).toMatchObject({
      request: { method: 'GET', url: 'https://api.example/x' },
      leftOut: [
        '-k: the node always checks the server’s certificate',
        '-o out.json: the node gives the response as its output, not a file',
        '-F file=@a.png: the node uploads no file',
        "--max-time 5: set the node's time limit instead",
        '--frobnicate: not an option the node knows',
        '-X HEAD: the node sends GET, POST, PUT, PATCH, DELETE; it sends GET',
      ],
    });
    expect(readCurl('wget https://x')).toEqual({ problem: 'a cURL command starts with curl' });
    expect(readCurl('curl -H "A: b"')).toEqual({ problem: 'the command names no URL' });
    expect(readCurl('curl https://x | jq .')).toEqual({
      problem: 'the command uses a pipe, a redirection or a glob: paste the curl command alone',
    });
  });
});
