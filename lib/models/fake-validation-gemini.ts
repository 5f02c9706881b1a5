// Test support: the fake provider's check of a Gemini generateContent body (lib/models/fake-validation.ts): proto
// JSON field names (camelCase or snake_case), one data field per part, declarations in Gemini's shape, and the
// function call / function response turn rules the API states in its 400 messages.
import { isRecord, type JsonRecord } from "../formats/json-fields.ts";
import { list, objectSchema, onlyKeys, pattern, record, refuse, text } from "./fake-checks.ts";

// "Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of 64."
const GEMINI_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const bothSpellings = (names: readonly string[]) => [...new Set(names.flatMap((name) => [name, snake(name)]))];
const field = (value: JsonRecord, name: string): unknown => value[name] ?? value[snake(name)];

const TOP = bothSpellings([
  "contents",
  "systemInstruction",
  "tools",
  "toolConfig",
  "generationConfig",
  "safetySettings",
  "cachedContent",
  "labels",
]);
const DATA = [
  "text",
  "inlineData",
  "fileData",
  "functionCall",
  "functionResponse",
  "executableCode",
  "codeExecutionResult",
];
const PART = bothSpellings([
  ...DATA,
  "thought",
  "thoughtSignature",
  "videoMetadata",
  "partMetadata",
  "mediaResolution",
]);
const TOOL = bothSpellings([
  "functionDeclarations",
  "googleSearch",
  "googleSearchRetrieval",
  "codeExecution",
  "urlContext",
  "retrieval",
  "fileSearch",
  "computerUse",
  "googleMaps",
  "enterpriseWebSearch",
  "mcpServers",
]);
const DECLARATION = bothSpellings([
  "name",
  "description",
  "parameters",
  "parametersJsonSchema",
  "response",
  "responseJsonSchema",
  "behavior",
]);

function checkDeclaration(value: unknown, path: string): void {
  const declaration = record(value, path);
  onlyKeys(declaration, DECLARATION, path);
  pattern(text(declaration.name, `${path}.name`), GEMINI_NAME, `${path}.name`);
  const parameters = field(declaration, "parameters");
  const jsonSchema = field(declaration, "parametersJsonSchema");
  if (parameters !== undefined && jsonSchema !== undefined)
    refuse(path, "parameters and parametersJsonSchema cannot both be set");
  if (parameters !== undefined) {
    const type = record(parameters, `${path}.parameters`).type;
    if (typeof type !== "string" || type.toUpperCase() !== "OBJECT")
      refuse(`${path}.parameters.type`, "must be OBJECT");
  }
  if (jsonSchema !== undefined) objectSchema(jsonSchema, `${path}.parametersJsonSchema`);
}

type Turn = { role: string; calls: JsonRecord[]; responses: JsonRecord[] };

function checkPart(value: unknown, path: string): JsonRecord {
  const part = record(value, path);
  onlyKeys(part, PART, path);
  const data = DATA.filter((name) => field(part, name) !== undefined);
  if (data.length !== 1) refuse(path, `a part holds exactly one of ${DATA.join(", ")}; found ${data.length}`);
  const call = field(part, "functionCall");
  if (call !== undefined) {
    const fn = record(call, `${path}.functionCall`);
    onlyKeys(fn, ["name", "args", "id"], `${path}.functionCall`);
    text(fn.name, `${path}.functionCall.name`);
    if (fn.args !== undefined) record(fn.args, `${path}.functionCall.args`);
  }
  const response = field(part, "functionResponse");
  if (response !== undefined) {
    const fn = record(response, `${path}.functionResponse`);
    onlyKeys(
      fn,
      bothSpellings(["name", "response", "id", "parts", "willContinue", "scheduling"]),
      `${path}.functionResponse`,
    );
    text(fn.name, `${path}.functionResponse.name`);
    record(fn.response, `${path}.functionResponse.response`);
  }
  return part;
}

function checkTurns(turns: Turn[]): void {
  turns.forEach((turn, index) => {
    const previous = turns[index - 1];
    if (turn.calls.length > 0 && previous?.role !== "user")
      refuse(
        `contents[${index}]`,
        "Please ensure that function call turn comes immediately after a user turn or after a function response turn.",
      );
    if (turn.responses.length === 0) return;
    if (previous === undefined || previous.calls.length === 0)
      refuse(
        `contents[${index}]`,
        "Please ensure that function response turn comes immediately after a function call turn.",
      );
    if (previous.calls.length !== turn.responses.length)
      refuse(
        `contents[${index}]`,
        "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
      );
    const names = (fns: JsonRecord[]) =>
      fns
        .map((fn) => String(fn.name))
        .sort()
        .join(",");
    if (names(previous.calls) !== names(turn.responses))
      refuse(`contents[${index}]`, "function response names must match the function calls of the function call turn");
    const ids = previous.calls.flatMap((fn) => (typeof fn.id === "string" ? [fn.id] : []));
    for (const fn of turn.responses)
      if (fn.id !== undefined && !ids.includes(String(fn.id)))
        refuse(
          `contents[${index}]`,
          `function response id ${String(fn.id)} names no function call of the function call turn`,
        );
  });
  turns.forEach((turn, index) => {
    const next = turns[index + 1];
    if (turn.calls.length > 0 && next !== undefined && next.responses.length === 0)
      refuse(
        `contents[${index + 1}]`,
        "Please ensure that function response turn comes immediately after a function call turn.",
      );
  });
}

export function checkGeminiRequest(body: JsonRecord): void {
  onlyKeys(body, TOP, "");
  const system = field(body, "systemInstruction");
  if (system !== undefined)
    list(record(system, "systemInstruction").parts, "systemInstruction.parts").forEach((part, index) =>
      checkPart(part, `systemInstruction.parts[${index}]`),
    );
  const turns = list(body.contents, "contents", { nonEmpty: true }).map((value, index): Turn => {
    const content = record(value, `contents[${index}]`);
    onlyKeys(content, ["role", "parts"], `contents[${index}]`);
    const role = content.role ?? "user";
    if (role !== "user" && role !== "model") refuse(`contents[${index}].role`, "Please use a valid role: user, model.");
    const parts = list(content.parts, `contents[${index}].parts`, { nonEmpty: true }).map((part, at) =>
      checkPart(part, `contents[${index}].parts[${at}]`),
    );
    const of = (name: string) =>
      parts.flatMap((part) => (isRecord(field(part, name)) ? [record(field(part, name), "")] : []));
    return { role: String(role), calls: of("functionCall"), responses: of("functionResponse") };
  });
  checkTurns(turns);
  const tools = body.tools;
  if (tools !== undefined)
    list(tools, "tools").forEach((value, index) => {
      const tool = record(value, `tools[${index}]`);
      onlyKeys(tool, TOOL, `tools[${index}]`);
      const declarations = field(tool, "functionDeclarations");
      if (declarations !== undefined)
        list(declarations, `tools[${index}].functionDeclarations`).forEach((declaration, at) =>
          checkDeclaration(declaration, `tools[${index}].functionDeclarations[${at}]`),
        );
    });
}
