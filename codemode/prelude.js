// The sandbox's setup, run once in every new runtime before the program.
// It gets the host's print function and the limits, and returns nothing
// the program can reach except what it installs: console, and length
// checks on the built-ins that would otherwise loop natively (where a
// timeout cannot stop them) over an array or string of any length.
(function (print, maxLength, maxString) {
  "use strict";
  const stringify = JSON.stringify;
  const format = (v) => {
    if (typeof v === "string") return v;
    if (v instanceof Error) return String(v);
    try {
      const s = stringify(v);
      return s === undefined ? String(v) : s;
    } catch (e) {
      return String(v);
    }
  };
  const line = (stream) => function (...args) { print(stream, args.map(format).join(" ")); };
  globalThis.console = Object.freeze({
    log: line(1), info: line(1), debug: line(1), warn: line(2), error: line(2),
  });

  const tooLong = (what, n) => new RangeError(what + " of " + n + " elements is over the sandbox's limit of " + maxLength);
  const checkLength = (what, o) => {
    if (o != null && typeof o === "object" || typeof o === "function") {
      const n = o.length;
      if (typeof n === "number" && n > maxLength) throw tooLong(what, n);
    }
  };
  const guard = (holder, name, check) => {
    const f = holder[name];
    if (typeof f !== "function") return;
    Object.defineProperty(holder, name, {
      value: { [name](...args) { check(this, args); return f.apply(this, args); } }[name],
      writable: true, configurable: true, enumerable: false,
    });
  };
  for (const name of Object.getOwnPropertyNames(Array.prototype)) {
    if (name === "constructor") continue;
    guard(Array.prototype, name, (self) => checkLength("an array", self));
  }
  for (const name of ["keys", "values", "entries", "assign", "fromEntries"]) {
    guard(Object, name, (self, args) => checkLength("an array", args[0]));
  }
  guard(Array, "from", (self, args) => checkLength("an array-like", args[0]));
  guard(JSON, "stringify", (self, args) => checkLength("an array", args[0]));
  const stringLimit = (self, args) => {
    const n = Number(args[0]);
    if (n * String(self).length > maxString || n > maxString) {
      throw new RangeError("a string of " + n + " characters is over the sandbox's limit of " + maxString);
    }
  };
  guard(String.prototype, "repeat", stringLimit);
  guard(String.prototype, "padStart", (self, args) => stringLimit("x", args));
  guard(String.prototype, "padEnd", (self, args) => stringLimit("x", args));
  const NativeArray = Array;
  const SafeArray = new Proxy(NativeArray, {
    apply(target, self, args) { if (args.length === 1) checkLength("an array", { length: args[0] }); return Reflect.apply(target, self, args); },
    construct(target, args, nt) { if (args.length === 1) checkLength("an array", { length: args[0] }); return Reflect.construct(target, args, nt === SafeArray ? target : nt); },
  });
  Object.defineProperty(NativeArray.prototype, "constructor", { value: SafeArray, writable: true, configurable: true, enumerable: false });
  globalThis.Array = SafeArray;
  for (const name of ["ArrayBuffer", "SharedArrayBuffer", "DataView", "Int8Array", "Uint8Array", "Uint8ClampedArray",
    "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array",
    "BigUint64Array", "WeakRef", "FinalizationRegistry"]) {
    delete globalThis[name];
  }
})
