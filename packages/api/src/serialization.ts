// Serialisation of responses. Routes whose rows are built by our own shaping
// functions (catalogue queries, record sets, programs, /v1/am) set
// `serializerCompiler: jsonSerializer`: plain JSON.stringify, which handles
// their shape unions faster than a schema-driven serialiser would. Their
// response schemas still document the answer; test/routes/response-shapes.test.ts
// validates real answers against the published document so the two cannot drift.
export const jsonSerializer = () => (data: unknown) => JSON.stringify(data);
