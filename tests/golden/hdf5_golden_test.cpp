// Golden comparison with Python kerchunk 0.2.2 (SingleHdf5ToZarr, inline_threshold 0): for every
// HDF5 file of ../shared/data with an output in ../shared/expected/kerchunk-0.2.2, our references
// must have the same keys, the same byte ranges, the same inline bytes and the same .zarray /
// .zattrs meaning, except for the documented differences in hdf5_golden_exceptions.cpp. Files
// kerchunk failed on must give the outcome recorded there.
#include <fnmatch.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "golden/hdf5_corpus_files.h"
#include "golden/hdf5_golden_exceptions.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/scan/file_scan.h"
#include "kerchunk/util/file_io.h"
#include "support/test_env.h"

namespace kerchunk::testing {
namespace {

namespace fs = std::filesystem;

// One reference value, comparable across our output and kerchunk's.
struct FlatValue {
  enum class Kind { kMeta, kRange, kInline, kOther } kind = Kind::kOther;
  std::string url;
  uint64_t offset = 0, length = 0;
  std::string bytes;  // metadata text or inline data
};

bool IsMetaKey(std::string_view key) {
  return key.ends_with(".zarray") || key.ends_with(".zattrs") || key.ends_with(".zgroup");
}

std::map<std::string, FlatValue> Flatten(const ReferenceSet& refs) {
  std::map<std::string, FlatValue> out;
  for (const Entry& e : refs.entries) {
    FlatValue v;
    switch (e.value.kind) {
      case EntryValue::Kind::kText:
      case EntryValue::Kind::kBase64:
        v.kind = IsMetaKey(e.key) ? FlatValue::Kind::kMeta : FlatValue::Kind::kInline;
        v.bytes = e.value.data;
        break;
      case EntryValue::Kind::kRange:
        v = {FlatValue::Kind::kRange, refs.urls[e.value.url], e.value.offset, e.value.length, ""};
        break;
      default:
        v.bytes = e.value.data;
    }
    out[e.key] = std::move(v);
  }
  for (const ArrayRefs& a : refs.arrays) {
    for (size_t i = 0; i < a.size(); ++i) {
      const ChunkRef r = a.Get(i);
      FlatValue v;
      if (r.kind == RefKind::kRange) {
        v = {FlatValue::Kind::kRange, refs.urls[r.url], r.offset, r.length, ""};
      } else if (r.kind == RefKind::kInline) {
        v.kind = FlatValue::Kind::kInline;
        v.bytes = std::string(r.data);
      }
      out[a.KeyPrefix() + a.grid().Key(a.chunk_index(i))] = std::move(v);
    }
  }
  return out;
}

bool SameJson(const std::string& a, const std::string& b) {
  auto x = json::Value::Parse(a);
  auto y = json::Value::Parse(b);
  return x.ok() && y.ok() && *x == *y;
}

struct Difference {
  std::string key;
  DiffKind kind;
};

std::vector<Difference> Compare(const std::map<std::string, FlatValue>& expected,
                                const std::map<std::string, FlatValue>& ours) {
  std::vector<Difference> diffs;
  for (const auto& [key, e] : expected) {
    auto it = ours.find(key);
    if (it == ours.end()) {
      diffs.push_back({key, DiffKind::kMissing});
      continue;
    }
    const FlatValue& o = it->second;
    if (e.kind == FlatValue::Kind::kMeta) {
      if (o.kind != e.kind || !SameJson(e.bytes, o.bytes)) {
        diffs.push_back({key, key.ends_with(".zattrs") ? DiffKind::kZattrs : DiffKind::kZarray});
      }
    } else if (e.kind == FlatValue::Kind::kRange) {
      if (o.kind != e.kind || o.url != e.url || o.offset != e.offset || o.length != e.length) {
        diffs.push_back({key, DiffKind::kRef});
      }
    } else if (o.kind != e.kind || (o.bytes != e.bytes && !SameJson(o.bytes, e.bytes))) {
      diffs.push_back({key, DiffKind::kInline});
    }
  }
  for (const auto& [key, o] : ours) {
    if (!expected.count(key)) diffs.push_back({key, DiffKind::kExtra});
  }
  return diffs;
}

bool Matches(std::string_view pattern, const std::string& text) {
  return fnmatch(std::string(pattern).c_str(), text.c_str(), 0) == 0;
}

std::string_view KindName(DiffKind k) {
  static constexpr std::string_view kNames[] = {"missing", "extra", "zarray",
                                                "zattrs",  "ref",   "inline"};
  return kNames[static_cast<int>(k)];
}

std::vector<std::string> FilesWithExpectedOutput() {
  std::vector<std::string> out;
  auto expected = ExpectedDir();
  if (!expected) return out;
  for (const std::string& f : Hdf5CorpusFiles()) {
    if (fs::exists(*expected / (f + ".json"))) out.push_back(f);
  }
  return out;
}

class Hdf5GoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(Hdf5GoldenTest, MatchesKerchunkExceptDocumentedDifferences) {
  const std::string rel = GetParam();  // "data/..."
  const std::string file = rel.substr(5);
  FileScanOptions options;
  options.on_unsupported = OnUnsupported::kSkip;
  auto ours = ScanHdf5File((*SharedDir() / rel).string(), rel, options);
  ASSERT_TRUE(ours.ok()) << ours.status().ToString();
  auto expected = ReadKerchunkFile((*ExpectedDir() / (rel + ".json")).string());
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();

  const auto diffs = Compare(Flatten(*expected), Flatten(ours->refs));
  std::set<size_t> used;
  const auto& table = GoldenExceptions();
  for (const Difference& d : diffs) {
    bool allowed = false;
    for (size_t i = 0; i < table.size(); ++i) {
      if (table[i].kind == d.kind && Matches(table[i].file, file) && Matches(table[i].key, d.key)) {
        allowed = true;
        used.insert(i);
      }
    }
    EXPECT_TRUE(allowed) << "undocumented difference: " << KindName(d.kind) << " " << d.key;
  }
  for (size_t i = 0; i < table.size(); ++i) {
    if (Matches(table[i].file, file) && !used.count(i)) {
      ADD_FAILURE() << "documented difference no longer occurs: " << KindName(table[i].kind) << " "
                    << table[i].key << " (" << table[i].reason << ")";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, Hdf5GoldenTest, ::testing::ValuesIn(FilesWithExpectedOutput()),
                         [](const auto& param_info) { return CorpusTestName(param_info.param); });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Hdf5GoldenTest);

class KerchunkFailedFileTest : public ::testing::TestWithParam<FailedFileOutcome> {};

TEST_P(KerchunkFailedFileTest, GivesTheRecordedOutcome) {
  KERCHUNK_SKIP_WITHOUT_SHARED_DATA();
  const FailedFileOutcome& o = GetParam();
  const std::string rel = "data/" + std::string(o.file);
  auto ours = ScanHdf5File((*SharedDir() / rel).string(), rel, FileScanOptions{});
  if (o.error.empty()) {
    EXPECT_TRUE(ours.ok()) << ours.status().ToString();
  } else {
    ASSERT_FALSE(ours.ok()) << "translated, expected: " << o.error;
    EXPECT_EQ(ours.status().code(), StatusCode::kUnsupported) << ours.status().ToString();
    EXPECT_NE(ours.status().message().find(o.error), std::string::npos) << ours.status().message();
  }
}

INSTANTIATE_TEST_SUITE_P(LogJson, KerchunkFailedFileTest,
                         ::testing::ValuesIn(KerchunkFailedFileOutcomes()),
                         [](const auto& param_info) {
                           return CorpusTestName(std::string(param_info.param.file));
                         });

// Every file kerchunk failed on (log.json) has a recorded outcome, so a new corpus file cannot
// slip past this test.
TEST(KerchunkFailedFiles, AllHaveARecordedOutcome) {
  auto expected = ExpectedDir();
  if (!expected) GTEST_SKIP() << "no ../shared/expected";
  auto log = json::Value::Parse(*ReadFileToString((*expected / "log.json").string()));
  ASSERT_TRUE(log.ok());
  std::set<std::string> recorded;
  for (const auto& o : KerchunkFailedFileOutcomes()) recorded.insert("data/" + std::string(o.file));
  const auto hdf5 = Hdf5CorpusFiles();
  const std::set<std::string> hdf5_files(hdf5.begin(), hdf5.end());
  for (const json::Value& entry : log->as_array()) {
    const std::string path = entry.Find("path")->as_string();
    if (entry.Find("ok")->as_bool() || !hdf5_files.count(path)) continue;
    EXPECT_TRUE(recorded.count(path)) << path << " has no recorded outcome";
  }
}

}  // namespace
}  // namespace kerchunk::testing
