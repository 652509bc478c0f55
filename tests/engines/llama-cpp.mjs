// SPDX-License-Identifier: GPL-3.0-or-later
// llama.cpp as the referee: small GGUF models (gguf-models.mjs) are loaded by the real library
// (node-llama-cpp's prebuilt llama.cpp, CPU backend), contexts are created over a grid of
// settings, and the buffers llama.cpp logs (KV, compute, output) are compared with vramcalc's
// estimate for the same settings. Weights are compared as tensor bytes: the CPU backend may
// repack weights, a GPU does not.
//
// Usage: node llama-cpp.mjs VRAMCALC NODE_MODULES WORKDIR
// TAP output; a context llama.cpp refuses must be refused by vramcalc (exit 2) for the same
// reason. Tolerance per buffer: 2 %, or the 0.005 MiB the log rounds to. The compute buffer is
// the graph allocator's high-water mark, where ggml-alloc places each tensor of the worst-case
// graph (src/core/vc-llama-graph.c replays it). Each context's three buffers, estimated and
// logged, are printed as a TAP comment; the summary counts the contexts within 2 % per buffer.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { MODELS, writeModel } from "./gguf-models.mjs";

const [vramcalc, nodeModules, workdir] = process.argv.slice(2);
const MiB = 1048576;
const TOLERANCE = 0.02;
const LOG_ROUNDING = 0.0051 * MiB;
// ggml_type of each cache type (ggml/include/ggml.h)
const CACHE_TYPES = { f16: 1, q8_0: 8, q4_0: 2 };

const { getLlama, LlamaLogLevel } = await import(path.join(nodeModules, "node-llama-cpp", "dist", "index.js"));

let lines = [];
const llama = await getLlama({
  gpu: false,
  build: "never",
  logLevel: LlamaLogLevel.info,
  logger: (level, message) => lines.push(message),
});

// Each point: per-sequence context, sequences, flash attention, micro-batch (-b = -ub, as
// node-llama-cpp passes them), K and V cache types.
function grid (full) {
  const points = [];
  const contexts = [[512, 1], [1000, 1], [4096, 1], [7000, 1], [32768, 1],
                    [128, 4], [1000, 4], [2500, 4], [8192, 4]];
  for (const [seq, nSeq] of contexts)
    for (const fa of [true, false])
      for (const ub of full ? [512, 2048] : [512]) {
        points.push({ seq, nSeq, fa, ub, k: "f16", v: "f16" });
      }
  if (full) {
    for (const [seq, nSeq] of [[4096, 1], [1000, 4]]) {
      points.push({ seq, nSeq, fa: true, ub: 512, k: "q8_0", v: "q8_0" });
      points.push({ seq, nSeq, fa: true, ub: 512, k: "q4_0", v: "q4_0" });
      points.push({ seq, nSeq, fa: false, ub: 512, k: "q8_0", v: "f16" });
      points.push({ seq, nSeq, fa: false, ub: 512, k: "f16", v: "q8_0" });
      points.push({ seq, nSeq, fa: false, ub: 512, k: "q4_0", v: "q4_0" });
    }
  }
  return points;
}

function logged (re) {
  return [...lines.join("").matchAll(re)].map((m) => Math.round(parseFloat(m[1]) * MiB));
}

function estimate (file, p) {
  const args = ["--model", file, "--engine", "llama.cpp", "--seq", String(p.seq),
                "--concurrency", String(p.nSeq), "--n-ubatch", String(p.ub), "--n-batch", String(p.ub),
                p.fa ? "--flash-attention" : "--no-flash-attention",
                "--cache-type-k", p.k, "--cache-type-v", p.v, "--format", "json"];
  const r = spawnSync(vramcalc, args, { encoding: "utf8" });
  if (r.status !== 0)
    return { status: r.status, message: r.stderr.trim() };
  const j = JSON.parse(r.stdout);
  const c = Object.fromEntries(j.components.map((x) => [x.id, x.bytes]));
  return {
    status: 0, weights: c.weights, kv: c.kv_cache, compute: c.activations,
    output: j.llama_cpp.output_buffer_bytes, sourceWeights: j.source.weights_bytes,
  };
}

let n = 0, failed = 0;
const worst = { kv: 0, compute: 0, output: 0, total: 0 };
const worstAt = {};
let contexts = 0, refused = 0;

const inside = { kv: 0, compute: 0, output: 0 };

function ok (pass, name, detail) {
  n++;
  if (!pass)
    failed++;
  console.log(`${pass ? "ok" : "not ok"} ${n} - ${name}`);
  if (!pass && detail)
    console.log(`# ${detail}`);
  if (!pass && detail)
    console.log(`# ${detail}`);
}

const pct = (x) => (100 * x).toFixed(2) + " %";

function within (est, real) {
  return Math.abs(est - real) <= Math.max(TOLERANCE * real, LOG_ROUNDING);
}

function relative (est, real) {
  return Math.abs(est - real) <= LOG_ROUNDING ? 0 : Math.abs(est - real) / real;
}

fs.mkdirSync(workdir, { recursive: true });
for (const m of MODELS) {
  for (const type of ["F16", "Q8_0", "Q4_0"]) {
    const file = path.join(workdir, `${m.name}-${type}.gguf`);
    const tensorBytes = writeModel(file, m, type);
    const model = await llama.loadModel({ modelPath: file, gpuLayers: 0 });

    for (const p of grid(type === "F16")) {
      const name = `${m.name} ${type} seq ${p.seq} × ${p.nSeq}, ub ${p.ub}, fa ${p.fa ? "on" : "off"}, K ${p.k} V ${p.v}`;
      lines = [];
      const ctx = new llama._bindings.AddonContext(model._model, {
        contextSize: p.seq * p.nSeq, batchSize: p.ub, sequences: p.nSeq, flashAttention: p.fa,
        threads: 1, kvCacheKeyType: CACHE_TYPES[p.k], kvCacheValueType: CACHE_TYPES[p.v],
      });
      let created;
      try {
        created = await ctx.init();
      } catch {
        created = false;
      }
      // the log callback runs after the call returns
      await new Promise((resolve) => setTimeout(resolve, 2));
      const est = estimate(file, p);
      contexts++;
      if (!created) {
        // src/llama.cpp, llama_init_from_model: "quantized V cache requires flash_attn to be enabled"
        const reason = lines.join("").match(/llama_init_from_model: (.*)/);
        refused++;
        ok(est.status === 2 && /quantized V cache requires flash_attn/.test(reason ? reason[1] : "") &&
           /quantized V cache without flash attention/.test(est.message),
           `${name}: refused by both`, `llama.cpp: ${reason ? reason[1] : "refused"}; vramcalc: exit ${est.status} ${est.message ?? ""}`);
      } else if (est.status !== 0) {
        ok(false, `${name}: created by llama.cpp`, `vramcalc refused it: ${est.message}`);
      } else {
        const kv = logged(/KV buffer size =\s*([\d.]+) MiB/g).reduce((a, b) => a + b, 0);
        const compute = logged(/CPU compute buffer size =\s*([\d.]+) MiB/g)[0];
        const output = logged(/output buffer size =\s*([\d.]+) MiB/g)[0];
        const total = kv + compute + output;
        const estTotal = est.kv + est.compute + est.output;
        for (const [key, e, r] of [["kv", est.kv, kv], ["compute", est.compute, compute],
                                   ["output", est.output, output], ["total", estTotal, total]]) {
          if (relative(e, r) > worst[key]) {
            worst[key] = relative(e, r);
            worstAt[key] = name;
          }
        }
        console.log(`# ${name}: KV ${est.kv} vs ${kv}, compute ${est.compute} vs ${compute}, output ${est.output} vs ${output}`);
        for (const [key, e, r] of [["kv", est.kv, kv], ["compute", est.compute, compute], ["output", est.output, output]])
          inside[key] += within(e, r) ? 1 : 0;
        ok(within(est.kv, kv) && within(est.compute, compute) && within(est.output, output), name,
           `KV ${est.kv} vs ${kv}, compute ${est.compute} vs ${compute}, output ${est.output} vs ${output}`);
      }
      await ctx.dispose();
    }
    const est = estimate(file, { seq: 512, nSeq: 1, fa: true, ub: 512, k: "f16", v: "f16" });
    ok(est.weights === tensorBytes && est.sourceWeights === tensorBytes,
       `${m.name} ${type}: weights are the tensors' ${tensorBytes} bytes`, `vramcalc: ${est.weights}`);
    await model.dispose();
    fs.rmSync(file);
  }
}
const created = contexts - refused;
console.log(`# ${contexts} contexts (${refused} refused by llama.cpp); of the ${created} created, within 2 %: ` +
            `KV ${inside.kv}, compute ${inside.compute}, output ${inside.output}; worst relative error: ` +
            `KV ${pct(worst.kv)}, compute ${pct(worst.compute)}, output ${pct(worst.output)}, ` +
            `KV + compute + output ${pct(worst.total)}`);
for (const key of Object.keys(worstAt))
  console.log(`# worst ${key}: ${worstAt[key]}`);
console.log(`1..${n}`);
await llama.dispose();
process.exit(failed > 0 ? 1 : 0);
