// @echogarden/fvad-wasm ships no type declarations: an Emscripten module factory.
declare module '@echogarden/fvad-wasm/fvad.js' {
  const factory: (moduleArg?: Record<string, unknown>) => Promise<unknown>;
  export default factory;
}
