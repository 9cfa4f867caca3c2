//===- attn-tuning-db.cpp - the tuning database from the command line -----===//
//
// attn-tuning-db import FILE.json DB   (creates DB if needed; all or nothing)
// attn-tuning-db export DB             (JSON on stdout)
// attn-tuning-db lookup DB CHIP DTYPE D DV MASK MODS GQA LSE N
//
// Every failure prints the file and the reason and exits non-zero.
//
//===----------------------------------------------------------------------===//

#include "attn/Tuning/TuningDB.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::attn;

static int fail(llvm::Error err) {
  llvm::errs() << "attn-tuning-db: " << llvm::toString(std::move(err)) << "\n";
  return 1;
}

static int usage() {
  llvm::errs() << "usage: attn-tuning-db import FILE.json DB | export DB | "
                  "lookup DB CHIP DTYPE D DV MASK MODS GQA LSE N\n";
  return 2;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (argc < 3)
    return usage();
  llvm::StringRef cmd = argv[1];
  if (cmd == "import" && argc == 4) {
    auto file = llvm::MemoryBuffer::getFile(argv[2]);
    if (!file) {
      llvm::errs() << "attn-tuning-db: cannot read " << argv[2] << "\n";
      return 1;
    }
    auto db = TuningDB::open(argv[3], /*create=*/true);
    if (!db)
      return fail(db.takeError());
    if (llvm::Error err = (*db)->importJSON((*file)->getBuffer()))
      return fail(std::move(err));
    return 0;
  }
  if (cmd == "export" && argc == 3) {
    auto db = TuningDB::open(argv[2], /*create=*/false);
    if (!db)
      return fail(db.takeError());
    auto json = (*db)->exportJSON();
    if (!json)
      return fail(json.takeError());
    llvm::outs() << *json << "\n";
    return 0;
  }
  if (cmd == "lookup" && argc == 12) {
    auto db = TuningDB::open(argv[2], /*create=*/false);
    if (!db)
      return fail(db.takeError());
    TuningKey key;
    key.chip = argv[3], key.dtype = argv[4], key.mask = argv[7],
    key.mods = argv[8];
    long long d, dv, gqa, lse, n;
    if (llvm::StringRef(argv[5]).getAsInteger(10, d) ||
        llvm::StringRef(argv[6]).getAsInteger(10, dv) ||
        llvm::StringRef(argv[9]).getAsInteger(10, gqa) ||
        llvm::StringRef(argv[10]).getAsInteger(10, lse) ||
        llvm::StringRef(argv[11]).getAsInteger(10, n))
      return usage();
    key.d = d, key.dv = dv, key.gqa = gqa, key.lse = lse != 0;
    key.nBucket = sequenceBucket(n);
    auto found = (*db)->lookup(key);
    if (!found)
      return fail(found.takeError());
    if (!*found) {
      llvm::outs() << "none\n";
      return 0;
    }
    llvm::outs() << (*found)->config << " " << (*found)->gpuConfig
                 << " bucket " << (*found)->key.nBucket << "\n";
    return 0;
  }
  return usage();
}
