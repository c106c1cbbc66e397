import { z } from 'zod';
import { HTTP_METHODS } from '../../model/http';
import type { NodeConfigProblem } from '../../model/node-catalogue';
import { formatReference, templateReferences, type Reference } from '../../model/template';
import { defineNode, preview } from '../define-node';
import { NamedValueSchema, namedValuesEditor, namelessProblems, unchosen } from '../shared-arguments';
import { callPorts } from '../shared-config';
import { basicCredentials, namesSecret, sendRequest } from './send-request';

const WITH_BODY: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const HttpConfigSchema = z.lazy(() =>
  z.object({
    method: z.enum(HTTP_METHODS).default('GET'),
    url: z.string().max(8000).default(''),
    /** Added to the URL's query, each value URL-encoded (n8n's Query Parameters). */
    query: z.array(NamedValueSchema).max(100).default([]),
    headers: z.array(NamedValueSchema).max(100).default([]),
    /**
     * Basic: an Authorization header made when the request is sent from `basicUser` and
     * `basicPassword` (templates, so a secret can be either), as curl's -u and n8n's Basic Auth.
     */
    auth: z.enum(['none', 'basic']).default('none'),
    basicUser: z.string().max(2000).default(''),
    basicPassword: z.string().max(16_000).default(''),
    /**
     * What the body is, sent with POST, PUT, PATCH and DELETE: `text` is `body` as written (JSON as
     * application/json, other text as text/plain); `form` and `multipart` are made from `form`, URL-encoded
     * or as multipart/form-data (n8n's Form Urlencoded and Form-Data, Dify's x-www-form-urlencoded and form-data).
     */
    bodyType: z.enum(['text', 'form', 'multipart']).default('text'),
    body: z.string().max(1_000_000).default(''),
    form: z.array(NamedValueSchema).max(100).default([]),
    /** A status that is not 2xx fails the node (HTTP_STATUS); off, the response is the output as any other. */
    failOnStatus: z.boolean().default(true),
    /** The output: the body (JSON when it is), or the whole response `{ status, headers, body }`. */
    output: z.enum(['body', 'response']).default('body'),
  }),
);

/**
 * `url` with `pairs` added to its query, URL-encoded, before any `#fragment`:
 * a value holding `&`, `#` or a space arrives as it was, where the same
 * reference written inside the URL would cut or change it.
 */
function withQuery(url: string, pairs: readonly (readonly [string, string])[]): string {
  if (pairs.length === 0) return url;
  const hash = url.indexOf('#');
  const [base, fragment] = hash === -1 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  const joiner = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  const encoded = pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
  return `${base}${joiner}${encoded}${fragment}`;
}

/**
 * Basic auth beside an Authorization header would send two: the node asks
 * for one. A user left empty is a node still to be set up.
 */
function authProblems(config: z.infer<typeof HttpConfigSchema>): NodeConfigProblem[] {
  if (config.auth !== 'basic') return [];
  const header = config.headers.findIndex((h) => h.name.trim().toLowerCase() === 'authorization');
  return [
    ...unchosen(config.basicUser, 'NODE_SETUP', 'write the user Basic auth sends', 'config.basicUser'),
    ...(header === -1
      ? []
      : [
          {
            code: 'NODE_SETUP' as const,
            severity: 'error' as const,
            field: `config.headers.${header}.name`,
            message: 'sends Basic auth and an Authorization header: keep one of them',
          },
        ]),
  ];
}

/** A form sets its own Content-Type (multipart's names its boundary): a header of the node's would send another. */
function formTypeProblems(config: z.infer<typeof HttpConfigSchema>): NodeConfigProblem[] {
  if (config.bodyType === 'text' || !WITH_BODY.has(config.method)) return [];
  const header = config.headers.findIndex((h) => h.name.trim().toLowerCase() === 'content-type');
  if (header === -1) return [];
  return [
    {
      code: 'NODE_SETUP',
      severity: 'error',
      field: `config.headers.${header}.name`,
      message: `sends a ${config.bodyType === 'form' ? 'URL-encoded form' : 'multipart form'}, which says its own Content-Type: remove this header`,
    },
  ];
}

/**
 * What the node holds and would not send, said where it is rather than left
 * unsent unsaid: a body with GET, text beside a form body, form fields beside
 * a text one (each kept, so that switching back finds them).
 */
function unsentBody(config: z.infer<typeof HttpConfigSchema>): NodeConfigProblem[] {
  const unsent = (field: string, message: string): NodeConfigProblem => ({
    code: 'HTTP_BODY',
    severity: 'warning',
    field,
    message,
  });
  const hasText = config.body !== '';
  const hasForm = config.form.length > 0;
  if (!WITH_BODY.has(config.method)) {
    return [
      ...(hasText ? [unsent('config.body', `${config.method} sends no body: this text is not sent`)] : []),
      ...(hasForm ? [unsent('config.form', `${config.method} sends no body: these form fields are not sent`)] : []),
    ];
  }
  if (config.bodyType === 'text') {
    return hasForm
      ? [
          unsent(
            'config.form',
            'the body type is JSON or text: these form fields are not sent; choose a form body type, or remove them',
          ),
        ]
      : [];
  }
  return hasText
    ? [unsent('config.body', 'the body type is a form: this text is not sent; choose JSON or text, or clear it')]
    : [];
}

/**
 * A password or token typed as it is would be kept in the flow, in every
 * version and in its exported file, where a reference keeps only a name.
 * A warning (it runs as typed), on the field, pointing at the Secrets page.
 */
function typedCredentials(config: z.infer<typeof HttpConfigSchema>): NodeConfigProblem[] {
  const typed = (text: string) => text.trim() !== '' && templateReferences(text).length === 0;
  const warning = (field: string, what: string): NodeConfigProblem => ({
    code: 'TYPED_SECRET',
    severity: 'warning',
    field,
    message: `${what} is typed as it is, so the flow and its exported file hold it: keep it on the Secrets page and write {{secrets.name}} here`,
  });
  return [
    ...(config.auth === 'basic' && typed(config.basicPassword)
      ? [warning('config.basicPassword', 'its Basic auth password')]
      : []),
    ...config.headers.flatMap((header, i) =>
      namesSecret(header.name) && typed(header.value)
        ? [warning(`config.headers.${i}.value`, `its ${header.name.trim()} header's value`)]
        : [],
    ),
    // A token endpoint's client_secret and password (OAuth's forms) are credentials as a header's are.
    ...(config.bodyType === 'text'
      ? []
      : config.form.flatMap((field, i) =>
          namesSecret(field.name) && typed(field.value)
            ? [warning(`config.form.${i}.value`, `its ${field.name.trim()} form field's value`)]
            : [],
        )),
  ];
}

/**
 * A reference in the URL's query is sent as its value is: an input holding
 * `&` or `#` would add a parameter or cut the URL, silently. Said as a
 * warning, pointing at Query parameters, which encode it.
 */
function unencodedQuery(url: string): NodeConfigProblem[] {
  const at = url.indexOf('?');
  if (at === -1) return [];
  const refs = templateReferences(url.slice(at));
  if (refs.length === 0) return [];
  return [
    {
      code: 'HTTP_QUERY',
      severity: 'warning',
      field: 'config.url',
      message: `its URL's query has {{${formatReference(refs[0] as Reference)}}}, sent as it is, not encoded: a value with &, # or a space changes the URL; put it under Query parameters, which encode it`,
    },
  ];
}

/** Every field of the node that is a template: what references are checked in, secrets read from, and sent. */
const httpTemplates = (config: z.infer<typeof HttpConfigSchema>) => [
  { field: 'url', text: config.url },
  ...config.query.map((q, i) => ({ field: `query.${i}.value`, text: q.value })),
  ...config.headers.map((h, i) => ({ field: `headers.${i}.value`, text: h.value })),
  { field: 'basicUser', text: config.basicUser },
  { field: 'basicPassword', text: config.basicPassword },
  { field: 'body', text: config.body },
  ...config.form.map((f, i) => ({ field: `form.${i}.value`, text: f.value })),
];

/** Calls a URL (n8n's and Dify's HTTP Request, Langflow's API Request): its answer is the output; no model. */
export const httpNode = defineNode({
  type: 'http',
  runsForEach: true,
  readsSecrets: true,
  version: 1,
  label: 'HTTP request',
  category: 'io',
  icon: 'web',
  description:
    'Calls a URL with a method, query parameters, headers and a body, each with {{…}} references; the response body (JSON when it is) is the output.',
  ...callPorts('response'),
  configSchema: HttpConfigSchema,
  defaults: () => HttpConfigSchema.parse({}),
  editor: [
    { key: 'method', label: 'Method', kind: 'select', options: HTTP_METHODS },
    { key: 'url', label: 'URL', kind: 'template', help: 'http:// or https://; {{secrets.name}} reads a secret' },
    {
      key: 'query',
      ...namedValuesEditor(
        'Query parameters',
        'added to the URL, each name and value URL-encoded: a value with a space, & or # arrives as it was written',
      ),
    },
    {
      key: 'headers',
      ...namedValuesEditor(
        'Headers',
        'stored with the flow and exported with it: write a key or token as {{secrets.name}} (the Secrets page), so the flow holds only its name; a run keeps secrets, and the values of headers named like a key, token, password, cookie or authorization, as •••',
      ),
    },
    {
      key: 'auth',
      label: 'Authentication',
      kind: 'select',
      options: ['none', 'basic'],
      optionLabels: { none: 'none, or a header below', basic: 'Basic auth (user and password)' },
    },
    {
      key: 'basicUser',
      label: 'User',
      kind: 'template',
      help: 'sent with the password as the Authorization header Basic auth makes; {{secrets.name}} reads a secret',
      shownWhen: { key: 'auth', is: ['basic'], orWhenSet: true },
    },
    {
      key: 'basicPassword',
      label: 'Password',
      kind: 'template',
      help: 'write it as {{secrets.name}} (the Secrets page): the flow, and its file, then hold only the name',
      shownWhen: { key: 'auth', is: ['basic'], orWhenSet: true },
    },
    {
      key: 'bodyType',
      label: 'Body type',
      kind: 'select',
      options: ['text', 'form', 'multipart'],
      optionLabels: {
        text: 'JSON or text, as written',
        form: 'form, URL-encoded',
        multipart: 'multipart form (form-data)',
      },
      shownWhen: { key: 'method', is: [...WITH_BODY] },
    },
    {
      key: 'body',
      label: 'Body',
      kind: 'template',
      help: 'sent with POST, PUT, PATCH and DELETE: JSON as application/json, other text as text/plain, unless a Content-Type header says',
      shownWhen: [
        { key: 'method', is: [...WITH_BODY], orWhenSet: true },
        { key: 'bodyType', is: ['text'], orWhenSet: true },
      ],
    },
    {
      key: 'form',
      ...namedValuesEditor(
        'Form fields',
        'sent as the body, each name and value encoded (URL-encoded as a web form posts them, or multipart form-data: text fields, no files), with the Content-Type that says so; a run keeps the values of fields named like a key, token, password or secret as •••',
      ),
      shownWhen: [
        { key: 'method', is: [...WITH_BODY], orWhenSet: true },
        { key: 'bodyType', is: ['form', 'multipart'], orWhenSet: true },
      ],
    },
    { key: 'failOnStatus', label: 'Fail when the status is not 2xx (429 and 5xx are retried)', kind: 'boolean' },
    {
      key: 'output',
      label: 'Output',
      kind: 'select',
      options: ['body', 'response'],
      optionLabels: { body: 'the body', response: 'status, headers and body' },
    },
  ],
  templates: (config) => httpTemplates(config),
  summary: (config) => (config.url.trim() ? `${config.method} ${preview(config.url, 60)}` : 'no URL yet'),
  check: (config) => [
    ...unchosen(config.url, 'NODE_SETUP', 'write the URL this node calls', 'config.url'),
    ...namelessProblems(config.query, 'query', 'query parameter'),
    ...namelessProblems(config.headers, 'headers', 'header'),
    ...namelessProblems(config.form, 'form', 'form field'),
    ...authProblems(config),
    ...formTypeProblems(config),
    ...unsentBody(config),
    ...typedCredentials(config),
    ...unencodedQuery(config.url),
  ],
  publishWarnings: (config) => {
    if (!templateReferences(config.url).some((ref) => ref.scope === 'inputs')) return [];
    const sendsSecret = httpTemplates(config).some(({ text }) =>
      templateReferences(text).some((ref) => ref.scope === 'secrets'),
    );
    return [
      sendsSecret
        ? 'its URL takes an input and it sends a secret: the MCP clients that call the tool can have your secret sent to any address'
        : 'its URL takes an input: the MCP clients that call the tool choose what it calls on this machine',
    ];
  },
  execute: (ctx, config) => {
    const basic =
      config.auth === 'basic'
        ? basicCredentials(ctx.render(config.basicUser), ctx.render(config.basicPassword))
        : undefined;
    return sendRequest(ctx, {
      method: config.method,
      url: withQuery(
        ctx.render(config.url).trim(),
        config.query.map((q) => [q.name.trim(), ctx.render(q.value)]),
      ),
      headers: [
        ...config.headers.map((h) => ({ name: h.name.trim(), value: ctx.render(h.value) })),
        ...(basic ? [{ name: 'Authorization', value: `Basic ${basic}` }] : []),
      ],
      ...(!WITH_BODY.has(config.method)
        ? {}
        : config.bodyType !== 'text'
          ? {
              form: {
                multipart: config.bodyType === 'multipart',
                fields: config.form.map((f) => ({ name: f.name.trim(), value: ctx.render(f.value) })),
              },
            }
          : config.body !== ''
            ? { body: ctx.render(config.body) }
            : {}),
      failOnStatus: config.failOnStatus,
      output: config.output,
      // The encoded credentials, as an answer echoing the request would show them (base64 is no secret).
      ...(basic ? { hiddenInReply: [basic] } : {}),
    });
  },
});
