// Resolve hook (see register.mjs): `import "server-only"` is a no-op in plain Node.
export async function resolve(specifier, context, nextResolve) {
  if (specifier === "server-only")
    return { url: "data:text/javascript,export{}", format: "module", shortCircuit: true };
  return nextResolve(specifier, context);
}
