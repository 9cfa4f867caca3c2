//===- CompileSchedule.cpp - which candidates attn-tune compiles ----------===//
//
// See CompileSchedule.h.
//
//===----------------------------------------------------------------------===//

#include "CompileSchedule.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>

using namespace attn_tune;

namespace {
enum State : char { Pending, Running, Done };

/// The schedule's state; every member but `plan` is guarded by `mutex`.
class Schedule {
public:
  explicit Schedule(const CompilePlan &plan)
      : plan(plan), state(plan.lengthsOf.size(), Pending),
        results(plan.lengthsOf.size()), compiled(plan.lengthsOf.size()) {
    // Priority: the best rank of a variant's bound at any of its lengths.
    size_t count = plan.lengthsOf.size();
    std::vector<size_t> priority(count, count);
    for (size_t j = 0; j < plan.lengths; ++j) {
      std::vector<size_t> at;
      for (size_t i = 0; i < count; ++i)
        if (llvm::is_contained(plan.lengthsOf[i], j))
          at.push_back(i);
      llvm::stable_sort(at, [&](size_t a, size_t b) {
        return boundAt(a, j) < boundAt(b, j);
      });
      for (auto [r, i] : llvm::enumerate(at))
        priority[i] = std::min(priority[i], r);
    }
    order.resize(count);
    std::iota(order.begin(), order.end(), 0);
    llvm::stable_sort(
        order, [&](size_t a, size_t b) { return priority[a] < priority[b]; });
  }

  /// One worker: compiles what `next` gives it until nothing is left.
  void work(llvm::function_ref<CompileResult(size_t)> compile,
            llvm::function_ref<void(size_t, size_t, int64_t)> ruledOut) {
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      if (plan.prune && allSettled())
        return;
      std::optional<size_t> i = next(ruledOut);
      if (!i) {
        // Waiting for a narrower block in flight, or nothing is left.
        if (llvm::none_of(state, [](State st) { return st == Running; }))
          return;
        progressed.wait(lock);
        continue;
      }
      state[*i] = Running;
      lock.unlock();
      CompileResult result = compile(*i);
      lock.lock();
      results[*i] = std::move(result);
      compiled[*i] = true;
      state[*i] = Done;
      progressed.notify_all();
    }
  }

  const std::vector<bool> &wasCompiled() const { return compiled; }

private:
  double boundAt(size_t i, size_t j) const {
    const std::vector<size_t> &n = plan.lengthsOf[i];
    return plan.bounds[i][llvm::find(n, j) - n.begin()];
  }
  double costAt(size_t i, size_t j) const {
    const std::vector<size_t> &n = plan.lengthsOf[i];
    return results[i].costs[llvm::find(n, j) - n.begin()];
  }

  /// Whether every length's --top is settled.
  bool allSettled() const {
    for (size_t j = 0; j < plan.lengths; ++j) {
      std::vector<double> costs;
      double open = std::numeric_limits<double>::infinity();
      for (size_t i = 0; i < state.size(); ++i) {
        if (!llvm::is_contained(plan.lengthsOf[i], j))
          continue;
        if (state[i] != Done)
          open = std::min(open, boundAt(i, j));
        else if (results[i].accepted)
          costs.push_back(costAt(i, j));
      }
      if (open == std::numeric_limits<double>::infinity())
        continue;
      if (costs.size() < size_t(plan.top))
        return false;
      std::nth_element(costs.begin(), costs.begin() + (plan.top - 1),
                       costs.end());
      if (!(costs[plan.top - 1] < open))
        return false;
    }
    return true;
  }

  /// The next variant to compile, or none. Marks the variants of spilled
  /// families Done on the way.
  std::optional<size_t>
  next(llvm::function_ref<void(size_t, size_t, int64_t)> ruledOut) {
    for (size_t i : order) {
      if (state[i] != Pending)
        continue;
      if (!plan.prune)
        return i;
      bool waits = false, spilled = false;
      for (size_t k = 0; k < state.size() && !spilled; ++k) {
        if (k == i || !plan.narrowerSibling(i, k))
          continue;
        if (state[k] != Done)
          waits = true;
        else if (results[k].spillBytes >= kFamilySpillBytes) {
          spilled = true;
          ruledOut(i, k, results[k].spillBytes);
        }
      }
      if (spilled) {
        state[i] = Done;
        continue;
      }
      if (!waits)
        return i;
    }
    return std::nullopt;
  }

  const CompilePlan &plan;
  std::vector<size_t> order; // by priority
  std::mutex mutex;
  std::condition_variable progressed;
  std::vector<State> state;
  std::vector<CompileResult> results;
  std::vector<bool> compiled;
};
} // namespace

std::vector<bool> attn_tune::scheduleCompilations(
    const CompilePlan &plan, llvm::ThreadPoolInterface &pool, unsigned workers,
    llvm::function_ref<CompileResult(size_t)> compile,
    llvm::function_ref<void(size_t, size_t, int64_t)> ruledOut) {
  Schedule schedule(plan);
  llvm::ThreadPoolTaskGroup group(pool);
  for (unsigned w = 0; w < std::max(1u, workers); ++w)
    group.async([&] { schedule.work(compile, ruledOut); });
  group.wait();
  return schedule.wasCompiled();
}
