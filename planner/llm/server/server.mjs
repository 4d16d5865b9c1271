// An OpenAI-compatible chat-completions endpoint over node-llama-cpp, for Navi's LLM planner
// with a local GGUF model on the CPU (make llm installs both; navi dev up -llm local starts it).
//
//   node server.mjs --model .llm/model.gguf [--addr 127.0.0.1:8402] [--name qwen2.5-coder-1.5b-instruct] [--context 8192] [--threads 2]
//
// POST /v1/chat/completions takes messages (system, user, assistant), max_tokens or
// max_completion_tokens, temperature and response_format: json_object decodes under a JSON
// grammar, json_schema under the schema's own grammar (constrained decoding: the answer cannot
// leave the schema). Usage counts every prompt token, and prompt_tokens_details.cached_tokens
// those the model did not evaluate again because the previous request began the same way
// (a stable system prompt first is what makes that happen). GET /v1/models lists the model,
// GET /health says whether it is loaded. One request is decoded at a time; others wait.
import http from "node:http";
import { parseArgs } from "node:util";
import { getLlama, LlamaChat, LlamaText } from "node-llama-cpp";
// Not exported by the package, but the pinned version's own schema compiler: it is called here
// without new lines and indentation, which would cost the model tokens (a third of a compact answer).
import { getGbnfGrammarForGbnfJsonSchema } from "./node_modules/node-llama-cpp/dist/utils/gbnfJson/getGbnfGrammarForGbnfJsonSchema.js";

const { values: opt } = parseArgs({
  options: {
    model: { type: "string" },
    addr: { type: "string", default: "127.0.0.1:8402" },
    name: { type: "string", default: "qwen2.5-coder-1.5b-instruct" },
    context: { type: "string", default: "8192" },
    threads: { type: "string", default: "2" },
  },
});
if (!opt.model) {
  console.error("server.mjs: --model PATH (a GGUF file) is required");
  process.exit(2);
}
const [host, port] = [opt.addr.slice(0, opt.addr.lastIndexOf(":")), Number(opt.addr.slice(opt.addr.lastIndexOf(":") + 1))];
const contextSize = Number(opt.context);

const llama = await getLlama({ gpu: false, logLevel: "error" });
const model = await llama.loadModel({ modelPath: opt.model });
const context = await model.createContext({ contextSize, threads: Number(opt.threads), sequences: 1 });
const sequence = context.getSequence();
const chat = new LlamaChat({ contextSequence: sequence });
const grammars = new Map(); // response_format's JSON text -> grammar (a run's schema repeats)
log(`loaded ${opt.model} (${opt.name}), context ${contextSize} tokens, ${opt.threads} threads`);

// apiError is an error the client sees as an OpenAI error body with an HTTP status.
class apiError extends Error {
  constructor(status, message, param = null, code = null) {
    super(message);
    Object.assign(this, { status, param, code });
  }
}

// queue runs one generation at a time: there is one context sequence, and the CPU is busy anyway.
let queue = Promise.resolve();
function serial(fn) {
  const run = queue.then(fn, fn);
  queue = run.catch(() => {});
  return run;
}

function history(messages) {
  if (!Array.isArray(messages) || messages.length === 0) throw new apiError(400, "messages must be a non-empty array", "messages");
  const out = messages.map((m, i) => {
    const text = typeof m?.content === "string" ? m.content : Array.isArray(m?.content) ? m.content.map((p) => p?.text ?? "").join("") : null;
    if (text === null) throw new apiError(400, `messages[${i}].content must be a string`, "messages");
    switch (m.role) {
      case "system": case "developer": return { type: "system", text };
      case "user": return { type: "user", text };
      case "assistant": return { type: "model", response: [text] };
    }
    throw new apiError(400, `messages[${i}].role ${JSON.stringify(m.role)} is not system, user or assistant`, "messages");
  });
  if (out.at(-1).type !== "user") throw new apiError(400, "the last message must be the user's", "messages");
  out.push({ type: "model", response: [] });
  return out;
}

// gbnfSchema turns a JSON Schema into the subset node-llama-cpp compiles to a grammar: anyOf
// becomes oneOf, and keywords that only annotate (title, description, $schema, strict) go.
function gbnfSchema(s) {
  if (Array.isArray(s)) return s.map(gbnfSchema);
  if (s === null || typeof s !== "object") return s;
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    if (["title", "description", "$schema", "strict", "default", "examples"].includes(k)) continue;
    if (k === "properties" || k === "$defs") out[k] = Object.fromEntries(Object.entries(v).map(([p, ps]) => [p, gbnfSchema(ps)]));
    else out[k === "anyOf" ? "oneOf" : k] = gbnfSchema(v);
  }
  return out;
}

async function grammar(format) {
  if (!format || format.type === "text") return undefined;
  const key = JSON.stringify(format);
  if (grammars.has(key)) return grammars.get(key);
  let g;
  if (format.type === "json_object") g = await llama.getGrammarFor("json");
  else if (format.type === "json_schema" && format.json_schema?.schema) {
    try {
      const gbnf = getGbnfGrammarForGbnfJsonSchema(gbnfSchema(format.json_schema.schema), { allowNewLines: false, scopePadSpaces: 0 });
      // The grammar ends the answer with four new lines, which stop the generation (as
      // LlamaJsonSchemaGrammar does).
      g = await llama.createGrammar({ grammar: gbnf, stopGenerationTriggers: [LlamaText(["\n".repeat(4)])], trimWhitespaceSuffix: true });
    } catch (e) {
      throw new apiError(400, `response_format.json_schema is not a schema this server can decode under: ${e.message}`, "response_format");
    }
  } else throw new apiError(400, `response_format type ${JSON.stringify(format.type)} is not text, json_object or json_schema (with a schema)`, "response_format");
  if (grammars.size > 64) grammars.delete(grammars.keys().next().value);
  grammars.set(key, g);
  return g;
}

async function complete(body) {
  const items = history(body.messages);
  const maxTokens = Number(body.max_completion_tokens ?? body.max_tokens ?? 1024);
  const g = await grammar(body.response_format);
  const promptTokens = chat.chatWrapper.generateContextState({ chatHistory: items }).contextText.tokenize(model.tokenizer).length;
  if (promptTokens + Math.min(maxTokens, 256) > contextSize) {
    throw new apiError(400, `the prompt is ${promptTokens} tokens; with the answer it does not fit the model's context of ${contextSize} tokens`, "messages", "context_length_exceeded");
  }
  const before = { input: sequence.tokenMeter.usedInputTokens, output: sequence.tokenMeter.usedOutputTokens };
  const started = Date.now();
  const temperature = Number(body.temperature ?? 0);
  const res = await chat.generateResponse(items, {
    grammar: g,
    maxTokens,
    temperature: temperature < 1e-6 ? 0 : temperature,
    seed: body.seed,
  });
  const evaluated = sequence.tokenMeter.usedInputTokens - before.input;
  const completionTokens = sequence.tokenMeter.usedOutputTokens - before.output;
  const seconds = (Date.now() - started) / 1000;
  const finish = res.metadata.stopReason === "maxTokens" ? "length" : "stop";
  log(`prompt ${promptTokens} tokens (${Math.max(0, promptTokens - evaluated)} cached), answer ${completionTokens} tokens, ${seconds.toFixed(1)} s, ${finish}`);
  return {
    id: `chatcmpl-${started.toString(36)}`,
    object: "chat.completion",
    created: Math.floor(started / 1000),
    model: opt.name,
    choices: [{ index: 0, message: { role: "assistant", content: res.response }, finish_reason: finish }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: Math.max(0, promptTokens - evaluated) },
    },
  };
}

function send(res, status, obj) {
  const body = JSON.stringify(obj);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

const server = http.createServer(async (req, res) => {
  try {
    const path = new URL(req.url, "http://x").pathname.replace(/\/+$/, "");
    if (req.method === "GET" && (path === "/health" || path === "/v1/health")) return send(res, 200, { status: "ok", model: opt.name });
    if (req.method === "GET" && path === "/v1/models") {
      return send(res, 200, { object: "list", data: [{ id: opt.name, object: "model", owned_by: "local" }] });
    }
    if (req.method !== "POST" || path !== "/v1/chat/completions") throw new apiError(404, `no route ${req.method} ${path}`);
    let raw = "";
    for await (const chunk of req) raw += chunk;
    let body;
    try {
      body = JSON.parse(raw);
    } catch (e) {
      throw new apiError(400, `the request body is not JSON: ${e.message}`);
    }
    if (body.stream) throw new apiError(400, "stream is not supported", "stream");
    send(res, 200, await serial(() => complete(body)));
  } catch (e) {
    const status = e instanceof apiError ? e.status : 500;
    if (status === 500) log(`error: ${e.stack ?? e}`);
    send(res, status, { error: { message: e.message, type: status === 500 ? "server_error" : "invalid_request_error", param: e.param ?? null, code: e.code ?? null } });
  }
});
server.listen(port, host, () => log(`serving ${opt.name} on http://${host}:${port}/v1`));
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => server.close(() => process.exit(0)));

function log(msg) {
  console.error(`${new Date().toISOString()} navi-llm-server: ${msg}`);
}
