// The tuning database: JSON import and export, lookups (exact bucket,
// nearest bucket, none), attn-apply-tuning on ops, and every way the file
// can be wrong, each a warning naming the file with the heuristic used.
// RUN: rm -rf %t && mkdir -p %t
// RUN: attn-tuning-db import %S/Inputs/small-db.json %t/db.sqlite
// An import refuses an entry that does not parse (below), so a database
// edited by other means stands for one: the causal entry's gpu_config.
// RUN: %python -c "import sqlite3; c = sqlite3.connect('%t/db.sqlite'); c.execute(\"UPDATE attn_tuning SET gpu_config = '#attn.gpu_config<oops>' WHERE mask = '#attn.mask<causal, top_left>'\"); c.commit()"
// RUN: attn-tuning-db export %t/db.sqlite | FileCheck %s --check-prefix=EXPORT
// EXPORT-COUNT-5: "chip": "sm_90a"
// EXPORT: "schema_version": 1

// RUN: attn-tuning-db lookup %t/db.sqlite sm_90a f16 128 128 "#attn.mask<none>" "" 1 0 4096 | FileCheck %s --check-prefix=EXACT
// EXACT: #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2> #attn.gpu_config<wgmma = true> bucket 4096
// RUN: attn-tuning-db lookup %t/db.sqlite sm_90a f16 128 128 "#attn.mask<none>" "" 1 0 1000 | FileCheck %s --check-prefix=NEAREST
// NEAREST: block_m = 64, block_n = 128, warps = 4, stages = 1> #attn.gpu_config<wgmma = true> bucket 512
// RUN: attn-tuning-db lookup %t/db.sqlite sm_80 f16 128 128 "#attn.mask<none>" "" 1 0 4096 | FileCheck %s --check-prefix=NONE
// NONE: none

// The pass: exact, nearest, dynamic length (seq-len), no entry, an entry
// that does not parse.
// RUN: attn-opt %s --attn-apply-tuning="db=%t/db.sqlite chip=sm_90a" -verify-diagnostics -split-input-file | FileCheck %s
// RUN: attn-opt %s --attn-apply-tuning="db=%t/db.sqlite chip=sm_90a seq-len=600" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=SEQLEN

// attn-compile --tuning-db: the kernel of @exact is the tuned one (the
// whole file compiles as one module; the bad entry's warning is printed).
// RUN: attn-compile %s --chip=sm_90a --tuning-db=%t/db.sqlite -o %t/k 2>&1 | FileCheck %s --check-prefix=COMPILE-WARN
// COMPILE-WARN: warning: {{.*}}does not parse
// RUN: FileCheck %s --check-prefix=COMPILE < %t/k/exact.json
// COMPILE: "block_m": 128,
// COMPILE-NEXT: "block_n": 128,
// COMPILE: "warps": 8

// Bad files: missing, garbage, truncated, another schema, missing columns,
// another schema version, a locked file; and imports that are refused.
// RUN: not attn-tuning-db export %t/missing.sqlite 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: attn-tuning-db: tuning database '{{.*}}missing.sqlite': no such file
// RUN: echo garbage > %t/garbage.sqlite
// RUN: not attn-tuning-db export %t/garbage.sqlite 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: tuning database '{{.*}}garbage.sqlite': {{.*}}not a database
// RUN: head -c 600 %t/db.sqlite > %t/truncated.sqlite
// RUN: not attn-tuning-db export %t/truncated.sqlite 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: tuning database '{{.*}}truncated.sqlite':
// RUN: %python -c "import sqlite3; c = sqlite3.connect('%t/other.sqlite'); c.execute('CREATE TABLE x(a)'); c.commit()"
// RUN: not attn-tuning-db export %t/other.sqlite 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: tuning database '{{.*}}other.sqlite': not an attn tuning database (no such table: attn_tuning_meta)
// RUN: %python -c "import sqlite3; c = sqlite3.connect('%t/cols.sqlite'); c.execute('CREATE TABLE attn_tuning_meta(key TEXT, value TEXT)'); c.execute(\"INSERT INTO attn_tuning_meta VALUES ('schema_version', '1')\"); c.execute('CREATE TABLE attn_tuning(chip TEXT, d INTEGER)'); c.commit()"
// RUN: not attn-tuning-db export %t/cols.sqlite 2>&1 | FileCheck %s --check-prefix=COLS
// COLS: tuning database '{{.*}}cols.sqlite': unexpected table layout (no such column: dtype)
// RUN: cp %t/db.sqlite %t/v2.sqlite
// RUN: %python -c "import sqlite3; c = sqlite3.connect('%t/v2.sqlite'); c.execute(\"UPDATE attn_tuning_meta SET value = '2'\"); c.commit()"
// RUN: not attn-tuning-db export %t/v2.sqlite 2>&1 | FileCheck %s --check-prefix=VERSION
// VERSION: tuning database '{{.*}}v2.sqlite': schema version 2, this compiler reads 1
// RUN: %python %S/Inputs/hold-lock.py %t/db.sqlite "attn-tuning-db lookup %t/db.sqlite sm_90a f16 128 128 '#attn.mask<none>' '' 1 0 4096" 2>&1 | FileCheck %s --check-prefix=LOCKED
// LOCKED: tuning database '{{.*}}db.sqlite': database is locked (another process holds it)
// RUN: attn-opt %s --attn-apply-tuning="db=%t/garbage.sqlite" -split-input-file 2>&1 | FileCheck %s --check-prefix=PASS-BAD
// PASS-BAD: warning: tuning database '{{.*}}garbage.sqlite': {{.*}}; using the heuristic configurations
// PASS-BAD: attn.tuning = "heuristic"
// RUN: echo '{"schema_version": 1, "entries": [{"chip": "sm_90a"}]}' > %t/partial.json
// RUN: not attn-tuning-db import %t/partial.json %t/partial.sqlite 2>&1 | FileCheck %s --check-prefix=PARTIAL
// PARTIAL: import: entry 0: a field is missing or of the wrong type
// RUN: echo '{"schema_version": 1, "entries": [' > %t/broken.json
// RUN: not attn-tuning-db import %t/broken.json %t/broken.sqlite 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: import: {{.*}}

// Entries that no lookup could use are refused at import, naming the entry
// and the field, and nothing of the file is imported (small-db.json's
// first entry edited by tuning-db-entry.py).
// RUN: %python %S/Inputs/tuning-db-entry.py %S/Inputs/small-db.json %t/e 'config=#attn.tile_config<block_m = 128' 'config=#attn.tile_config<block_m = 100, block_n = 128, warps = 8, stages = 2>' 'gpu_config=#attn.gpu_config<warps = 3>' 'mask=#attn.mask<sideways>' 'chip=sm_99' 'dtype=f8' 'n_bucket=0' 'n_bucket=3000' 'time_ms=-1' 'time_ms=0' 'gqa=0' 'd=0' 'mods=bias,tilt' 'mask=#attn.mask< none >' 'mods=bias,softcap' 'mods=bias,bias_h1' 'winner2=0.5' 'config=array<index: 1>'
// RUN: not attn-tuning-db import %t/e0.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY0
// ENTRY0: tuning database '{{.*}}e.sqlite': import: entry 0: config '#attn.tile_config<block_m = 128' is not valid: unbalanced '<'
// RUN: not test -s %t/e.sqlite || (attn-tuning-db export %t/e.sqlite | FileCheck %s --check-prefix=EMPTY)
// EMPTY-NOT: "chip"
// RUN: not attn-tuning-db import %t/e1.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY1
// ENTRY1: import: entry 0: config '#attn.tile_config<block_m = 100, block_n = 128, warps = 8, stages = 2>' is not valid: block_m must be a power of two in [1, 256] or 192, got 100
// RUN: not attn-tuning-db import %t/e2.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY2
// ENTRY2: import: entry 0: gpu_config '#attn.gpu_config<warps = 3>' is not valid: duplicate or unknown struct parameter name: warps
// RUN: not attn-tuning-db import %t/e3.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY3
// ENTRY3: import: entry 0: mask '#attn.mask<sideways>' is not valid: unknown mask kind 'sideways'
// RUN: not attn-tuning-db import %t/e4.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY4
// ENTRY4: import: entry 0: chip 'sm_99' is not sm_80, sm_90 or sm_90a
// RUN: not attn-tuning-db import %t/e5.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY5
// ENTRY5: import: entry 0: dtype 'f8' is not f16, bf16 or f32
// RUN: not attn-tuning-db import %t/e6.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY6
// ENTRY6: import: entry 0: n_bucket 0 is not a bucket (a power of two from 512 to 16384)
// RUN: not attn-tuning-db import %t/e7.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY7
// ENTRY7: import: entry 0: n_bucket 3000 is not a bucket
// RUN: not attn-tuning-db import %t/e8.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY8
// ENTRY8: import: entry 0: time_ms must be a positive number
// RUN: not attn-tuning-db import %t/e9.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY8
// RUN: not attn-tuning-db import %t/e10.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY10
// ENTRY10: import: entry 0: gqa must be positive
// RUN: not attn-tuning-db import %t/e11.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY11
// ENTRY11: import: entry 0: d and dv must be positive
// RUN: not attn-tuning-db import %t/e12.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY12
// ENTRY12: import: entry 0: mods: 'tilt' is not a score modification kind
// RUN: not attn-tuning-db import %t/e13.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY13
// ENTRY13: import: entry 0: mask '#attn.mask< none >' is not as a key prints it ('#attn.mask<none>')
// RUN: not attn-tuning-db import %t/e14.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY14
// ENTRY14: import: entry 0: mods 'bias,softcap' is not as a key prints it
// RUN: not attn-tuning-db import %t/e15.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY15
// ENTRY15: import: entry 0: mods 'bias,bias_h1' is not as a key prints it
// An index dense array (which MLIR 22.1's parser crashes on) is refused too.
// RUN: not attn-tuning-db import %t/e17.json %t/e.sqlite 2>&1 | FileCheck %s --check-prefix=ENTRY17
// ENTRY17: import: entry 0: config 'array<index: 1>' is not valid: a dense array of 'index' elements is not supported

// Several winners of one key and bucket (measured on several GPUs, or in
// several runs) import; a lookup takes the fastest (entry 1's 128 x 64 at
// 0.5 ms, inserted after entry 0's 128 x 128 at 1.25 ms).
// RUN: rm -f %t/w.sqlite && attn-tuning-db import %t/e16.json %t/w.sqlite
// RUN: attn-tuning-db lookup %t/w.sqlite sm_90a f16 128 128 "#attn.mask<none>" "" 1 0 4096 | FileCheck %s --check-prefix=FASTEST
// FASTEST: #attn.tile_config<block_m = 128, block_n = 64, warps = 8, stages = 2> #attn.gpu_config<wgmma = true> bucket 4096
// Importing the same file again adds no row (attn-tune all re-imports a
// resumed run's merged output).
// RUN: attn-tuning-db import %t/e16.json %t/w.sqlite
// RUN: attn-tuning-db export %t/w.sqlite | grep -c '"chip"' | FileCheck %s --check-prefix=ONCE
// ONCE: 5

// CHECK-LABEL: func.func @exact
// CHECK: attn.tuning = "db exact 4096", config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>, gpu_config = #attn.gpu_config<wgmma = true>
func.func @exact(%q: memref<1x16x4096x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<1x16x4096x128xf16>, memref<1x16x4096x128xf16>, memref<1x16x4096x128xf16>)
                 outs(%q : memref<1x16x4096x128xf16>)
  return
}

// -----

// 1000 keys: bucket 1024, nearest to the 512 entry.
// CHECK-LABEL: func.func @nearest
// CHECK: attn.tuning = "db nearest 512", config = #attn.tile_config<block_m = 64, block_n = 128, warps = 4, stages = 1>
func.func @nearest(%q: memref<1x16x1000x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<1x16x1000x128xf16>, memref<1x16x1000x128xf16>, memref<1x16x1000x128xf16>)
                 outs(%q : memref<1x16x1000x128xf16>)
  return
}

// -----

// A dynamic length (one kernel for every length) takes the configuration
// timed in every bucket whose worst bucket is nearest that bucket's best:
// 128 x 128 (the 4096 winner, 1.2x the best at 512; 64 x 128 was timed at
// 512 only); dynamic head counts (an unknown GQA group) match any group,
// 1 first. With seq-len, that length's bucket.
// CHECK-LABEL: func.func @dynamic
// CHECK: attn.tuning = "db robust over 2 buckets (worst 1.200x the bucket's best)", config = #attn.tile_config<block_m = 128, block_n = 128, warps = 8, stages = 2>
// SEQLEN-LABEL: func.func @dynamic
// SEQLEN: attn.tuning = "db nearest 512", config = #attn.tile_config<block_m = 64, block_n = 128, warps = 4, stages = 1>
func.func @dynamic(%q: memref<?x?x?x128xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>)
  return
}

// -----

// No entry for D = 64: left to the heuristic.
// CHECK-LABEL: func.func @no_entry
// CHECK-NOT: tile_config
// CHECK: attn.tuning = "heuristic"
func.func @no_entry(%q: memref<?x?x?x64xf16>) {
  attn.attention ins(%q, %q, %q : memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>)
                 outs(%q : memref<?x?x?x64xf16>)
  return
}

// -----

// The causal entry's gpu_config does not parse: a warning, the heuristic.
// CHECK-LABEL: func.func @bad_entry
// CHECK: attn.tuning = "heuristic"
func.func @bad_entry(%q: memref<?x?x?x128xf16>) {
  // expected-warning @+1 {{the entry for this op holds a configuration that does not parse ('#attn.tile_config<block_m = 64, block_n = 128, warps = 4, stages = 1>', '#attn.gpu_config<oops>'); using the heuristic configuration}}
  attn.attention ins(%q, %q, %q : memref<?x?x?x128xf16>, memref<?x?x?x128xf16>, memref<?x?x?x128xf16>)
                 outs(%q : memref<?x?x?x128xf16>) {mask = #attn.mask<causal, top_left>}
  return
}
