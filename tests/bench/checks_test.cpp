// The result checks: CheckSameReferences finds a difference of any kind, and a step broken on
// purpose (through BenchHooks) stops the benchmark with an error naming the step and the key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "kerchunk/bench/bench.h"
#include "kerchunk/bench/reference_check.h"
#include "kerchunk/bench/synthetic_set.h"
#include "support/test_env.h"

namespace kerchunk::bench {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

ReferenceSet SmallSet() {
  NetcdfSeriesOptions o;
  o.files = 3;
  o.chunks_per_file = 6;
  o.variables = 2;
  auto refs = MakeSyntheticReferenceSet(o);
  EXPECT_TRUE(refs.ok()) << refs.status().message();
  return std::move(*refs);
}

// A copy with the offset of the first chunk of array `path` moved by one byte.
ReferenceSet WithShiftedOffset(const ReferenceSet& refs, const std::string& path) {
  ReferenceSet copy = refs;
  ArrayRefs& array = *copy.FindArray(path);
  ArrayRefs shifted(array.path(), array.grid());
  for (size_t i = 0; i < array.size(); ++i) {
    ChunkRef ref = array.Get(i);
    if (i == 0) ref.offset += 1;
    shifted.Add(array.chunk_index(i), ref);
  }
  array = std::move(shifted);
  return copy;
}

TEST(CheckSameReferencesTest, EqualSetsPass) {
  ReferenceSet refs = SmallSet();
  ReferenceSet copy = refs;
  EXPECT_TRUE(CheckSameReferences(refs, copy, "unpack").ok());
}

TEST(CheckSameReferencesTest, UrlsAreComparedAsStrings) {
  ReferenceSet refs = SmallSet();
  ReferenceSet renumbered;
  renumbered.entries = refs.entries;
  // Intern the URLs in reverse order so every id differs.
  for (size_t i = refs.urls.size(); i-- > 0;) renumbered.urls.Intern(refs.urls[i]);
  for (const ArrayRefs& a : refs.arrays) {
    ArrayRefs& copy = renumbered.AddArray(a.path(), a.grid());
    for (size_t i = 0; i < a.size(); ++i) {
      ChunkRef ref = a.Get(i);
      ref.url = *renumbered.urls.Find(refs.urls[ref.url]);
      copy.Add(a.chunk_index(i), ref);
    }
  }
  ASSERT_TRUE(renumbered.Finalize().ok());
  EXPECT_TRUE(CheckSameReferences(refs, renumbered, "load").ok());
}

TEST(CheckSameReferencesTest, AShiftedOffsetIsReportedWithItsKey) {
  ReferenceSet refs = SmallSet();
  Status s = CheckSameReferences(refs, WithShiftedOffset(refs, "tp"), "unpack");
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(),
              AllOf(HasSubstr("unpack: key tp/0.0.0"), HasSubstr("expected"), HasSubstr("got")));
}

TEST(CheckSameReferencesTest, MissingAndExtraKeysAreReported) {
  ReferenceSet refs = SmallSet();
  ReferenceSet fewer = refs;
  ASSERT_TRUE(fewer.RemoveEntry("tp/.zattrs"));
  EXPECT_THAT(CheckSameReferences(refs, fewer, "write").message(),
              HasSubstr("key tp/.zattrs is missing"));
  EXPECT_THAT(CheckSameReferences(fewer, refs, "write").message(), HasSubstr("non-chunk keys"));
  ReferenceSet no_array = refs;
  no_array.FindArray("t2m")->mutable_chunks().clear();
  no_array.FindArray("t2m")->mutable_urls().clear();
  EXPECT_THAT(CheckSameReferences(refs, no_array, "load").message(),
              HasSubstr("array 't2m' are missing"));
}

// A tiny run with every step; `corrupt` breaks the output of one step before its check.
Result<BenchReport> RunTiny(bool refs_only, std::string_view corrupt_step) {
  BenchOptions o;
  SyntheticSpec spec;
  spec.series.files = 2;
  spec.series.chunks_per_file = 8;
  spec.series.variables = 2;
  spec.refs_only = refs_only;
  o.synthetic = spec;
  o.lookups = 50;
  o.compressors = false;
  o.quiet = true;
  o.hooks.before_check = [corrupt_step](std::string_view step, ReferenceSet& output) {
    if (step != corrupt_step) return;
    ArrayRefs& tp = *output.FindArray("tp");
    ArrayRefs damaged(tp.path(), tp.grid());
    for (size_t i = 0; i < tp.size(); ++i) {
      ChunkRef ref = tp.Get(i);
      if (i == 1) ref.length += 7;
      damaged.Add(tp.chunk_index(i), ref);
    }
    tp = std::move(damaged);
  };
  std::ostringstream out, err;
  return RunBench(o, out, err);
}

TEST(BenchResultCheckTest, UndamagedRunsPass) {
  auto refs_only = RunTiny(true, "");
  ASSERT_TRUE(refs_only.ok()) << refs_only.status().message();
  auto scanned = RunTiny(false, "");
  ASSERT_TRUE(scanned.ok()) << scanned.status().message();
}

TEST(BenchResultCheckTest, EachDamagedStepStopsTheRun) {
  for (const char* step : {"load", "write", "unpack"}) {
    SCOPED_TRACE(step);
    auto report = RunTiny(true, step);
    ASSERT_FALSE(report.ok());
    EXPECT_EQ(report.status().code(), StatusCode::kDataLoss);
    EXPECT_THAT(report.status().message(),
                AllOf(HasSubstr(std::string(step) + ": key tp/"), HasSubstr("expected")));
  }
}

TEST(BenchResultCheckTest, AScanThatLosesAChunkIsCaught) {
  BenchOptions o;
  SyntheticSpec spec;
  spec.series.files = 2;
  spec.series.chunks_per_file = 8;
  o.synthetic = spec;
  o.compressors = false;
  o.quiet = true;
  o.hooks.before_check = [](std::string_view step, ReferenceSet& output) {
    if (step != "scan") return;
    ArrayRefs& t2m = *output.FindArray("t2m");
    t2m.mutable_chunks().pop_back();
    t2m.mutable_urls().pop_back();
  };
  std::ostringstream out, err;
  auto report = RunBench(o, out, err);
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(report.status().message(),
              HasSubstr("scan: variable t2m: expected the 16 chunks written, got 15"));
}

}  // namespace
}  // namespace kerchunk::bench
