//===- Passes.td - tuning passes ---------------------------*- tablegen -*-===//

#ifndef ATTN_TUNING_PASSES_TD
#define ATTN_TUNING_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttnApplyTuning : Pass<"attn-apply-tuning"> {
  let summary = "Write tuned configurations from a tuning database into attn.attention ops";
  let description = [{
    For every `attn.attention` without a `config`, looks up its problem class
    in the SQLite tuning database `db` (docs/tuning.md: chip, dtype, D, Dv,
    mask with its alignment and window, score modifications, GQA group, LSE
    or not, sequence-length bucket): the winner of the exact bucket, else
    of the nearest bucket, else nothing (`attn-default-config`, which runs
    next, then fills in its heuristic). The bucket is the op's static key
    length rounded up to a power of two in [512, 16384], or `seq-len`'s
    when the length is dynamic and `seq-len` is given. A dynamic length
    without `seq-len` (one kernel for every length) takes, among the
    configurations timed in every bucket of the key, the one whose worst
    bucket is nearest that bucket's best (the heuristic's own
    configuration is timed too, so the choice is never slower than it as
    measured); with one bucket or no configuration timed in all, bucket
    4096's winner. It records where the configuration came from in
    `attn.tuning` (`"db exact N"`, `"db nearest N"`, `"db robust over K
    buckets (worst R x the bucket's best)"`, `"heuristic"`). A database that is missing, locked,
    corrupt, of another schema or holding an entry that does not parse
    gives a warning naming the file and the reason, and the heuristic is
    used: never a crash, never a silently wrong choice.
  }];
  let options = [
    Option<"db", "db", "std::string", /*default=*/"\"\"",
           "Tuning database (SQLite file); empty: this pass does nothing">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU the entries were tuned for">,
    Option<"seqLen", "seq-len", "int64_t", /*default=*/"0",
           "Sequence length to pick the bucket by when the op's is dynamic "
           "(0: the configuration best over all buckets)">
  ];
  let dependentDialects = ["::mlir::attn::AttnDialect"];
}

#endif // ATTN_TUNING_PASSES_TD
