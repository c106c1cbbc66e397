import { HTTP_METHODS } from '../model/http';
import { asString, isRecord } from './shared';
import { optionsLeftOut, rows, type ConvertContext, type NodeKind } from './n8n-model';

/** n8n's HTTP Request node (version 3 and later) as an HTTP request node. */

export type Named = { name: string; value: string };

function namedRows(ctx: ConvertContext, collection: unknown, field: string): Named[] {
  return rows(collection, 'parameters').map((row, i) => ({
    name: asString(row.name),
    value: ctx.template(row.value, `${field}.parameters[${i}].value`),
  }));
}

/** HTTP Request, version 3 and later (n8n 1.x): query, headers and body as key-value pairs or JSON. */
function httpConfig(ctx: ConvertContext): { config: Record<string, unknown>; timeoutMs?: number } {
  const p = ctx.node.parameters;
  const method = asString(p.method, 'GET').toUpperCase();
  const config: Record<string, unknown> = {
    method: (HTTP_METHODS as readonly string[]).includes(method) ? method : 'GET',
    url: ctx.template(p.url, 'url'),
  };
  if (config.method !== method) ctx.problem(`its method ${method} is not one Flowbench sends`, { field: 'method' });
  if (asString(p.authentication, 'none') !== 'none')
    ctx.problem(
      'its n8n credential is not carried over: add the header it sent (an Authorization header reading {{secrets.NAME}}), or Basic auth, in the inspector',
      { field: 'authentication' },
    );
  const pairsOrJson = (send: string, specify: string, collection: string, json: string, what: string) => {
    if (p[send] !== true) return [];
    if (p[specify] === 'json') {
      ctx.problem(`its ${what} are one JSON text; Flowbench takes them name by name: add them in the inspector`, {
        field: json,
      });
      return [];
    }
    return namedRows(ctx, p[collection], collection);
  };
  config.query = pairsOrJson('sendQuery', 'specifyQuery', 'queryParameters', 'jsonQuery', 'query parameters');
  config.headers = pairsOrJson('sendHeaders', 'specifyHeaders', 'headerParameters', 'jsonHeaders', 'headers');
  if (p.sendBody === true) {
    const type = asString(p.contentType, 'json');
    if (type === 'json' && p.specifyBody === 'json') config.body = ctx.template(p.jsonBody, 'jsonBody');
    else if (type === 'json') {
      // Each value a template within a JSON string: a value holding a quote is said by the HTTP node's run.
      const fields = namedRows(ctx, p.bodyParameters, 'bodyParameters');
      config.body = `{${fields.map((f) => `${JSON.stringify(f.name)}: ${JSON.stringify(f.value)}`).join(', ')}}`;
    } else if (type === 'form-urlencoded' || type === 'multipart-form-data') {
      config.bodyType = type === 'multipart-form-data' ? 'multipart' : 'form';
      const all = rows(p.bodyParameters, 'parameters');
      all.forEach((row, i) => {
        if (row.parameterType === 'formBinaryData')
          ctx.problem(`its form field "${asString(row.name)}" sends a file; Flowbench's forms send text fields`, {
            field: `bodyParameters.parameters[${i}]`,
          });
      });
      config.form = namedRows(ctx, p.bodyParameters, 'bodyParameters').filter(
        (_f, i) => all[i]?.parameterType !== 'formBinaryData',
      );
    } else if (type === 'raw') {
      config.body = ctx.template(p.body, 'body');
      if (p.rawContentType)
        (config.headers as Named[]).push({
          name: 'Content-Type',
          value: ctx.template(p.rawContentType, 'rawContentType'),
        });
    } else
      ctx.problem(`its ${type} body is not carried over: Flowbench sends text or form fields`, {
        field: 'contentType',
      });
  }
  const options = isRecord(p.options) ? p.options : {};
  optionsLeftOut(ctx, options, ['timeout', 'response']);
  const response = isRecord(options.response) && isRecord(options.response.response) ? options.response.response : {};
  if (response.neverError === true) config.failOnStatus = false;
  if (response.fullResponse === true) config.output = 'response';
  const timeout = options.timeout;
  return {
    config,
    ...(typeof timeout === 'number' && timeout >= 1 ? { timeoutMs: Math.min(3_600_000, timeout) } : {}),
  };
}

export const http: NodeKind = {
  data: (_node, id) => ({ kind: 'object', nodeId: id }),
  convert: (ctx) => {
    if (ctx.node.typeVersion < 3) {
      ctx.problem(
        `it is an HTTP Request node of version ${ctx.node.typeVersion}, whose settings Flowbench does not read: open the workflow in a current n8n and export it again, or set it up in the inspector`,
      );
      return {
        type: 'http',
        config: { url: ctx.template(ctx.node.parameters.url, 'url') },
        read: Object.keys(ctx.node.parameters),
      };
    }
    const { config, timeoutMs } = httpConfig(ctx);
    return {
      type: 'http',
      config,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      read: [
        'method',
        'url',
        'authentication',
        'genericAuthType',
        'nodeCredentialType',
        'sendQuery',
        'specifyQuery',
        'queryParameters',
        'jsonQuery',
        'sendHeaders',
        'specifyHeaders',
        'headerParameters',
        'jsonHeaders',
        'sendBody',
        'contentType',
        'specifyBody',
        'bodyParameters',
        'jsonBody',
        'body',
        'rawContentType',
        'options',
      ],
    };
  },
};
