// Corpus test: for every time series of ../shared/data that Python kerchunk 0.2.2 combined
// (expected/.../timeseries/<set>.combined.json), combining Python's own per-file references
// (expected/.../timeseries/<set>/*.json) gives the same keys and references. The differences
// docs/differences.md ("combine") documents are compared by meaning instead:
//  - the time coordinate: ours is one raw inline chunk, MultiZarrToZarr's a zstd-compressed
//    inline chunk with fill_value 0.0 -> decoded values compared, .zarray without its encoding;
//  - chunks MultiZarrToZarr inlined (< 500 bytes): ours stay references -> bytes compared.
// Skips (no instances) when ../shared is absent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>

#include "kerchunk/codecs/pipeline.h"
#include "kerchunk/combine/combine.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/util/file_io.h"
#include "support/test_env.h"

namespace kerchunk {
namespace {

namespace fs = std::filesystem;

fs::path TimeseriesDir() { return *testing::ExpectedDir() / "data" / "timeseries"; }

// identical_dims of the set as the generator passed them (log.json).
std::vector<std::string> IdenticalDims(const std::string& set) {
  auto log = json::Value::Parse(*ReadFileToString(*testing::ExpectedDir() / "log.json"));
  std::vector<std::string> out;
  for (const auto& e : log->as_array()) {
    const json::Value* path = e.Find("path");
    const json::Value* dims = e.Find("identical_dims");
    if (path && dims && path->as_string() == "data/timeseries/" + set + "/") {
      for (const auto& d : dims->as_array()) out.push_back(d.as_string());
    }
  }
  return out;
}

// One key's value with URL ids resolved.
struct Value {
  bool chunk = false;
  EntryValue entry;  // !chunk
  ChunkRef ref;      // chunk
  std::string url;   // chunk ranges
};

// URLs relative to ../shared, as Python's are ("data/timeseries/..."); our scans write
// absolute paths, with symbolic links resolved (../shared may be a link).
std::string RelativeUrl(const std::string& url) {
  for (const fs::path& dir : {*testing::SharedDir(), fs::weakly_canonical(*testing::SharedDir())}) {
    const std::string prefix = dir.string() + "/";
    if (url.starts_with(prefix)) return url.substr(prefix.size());
  }
  return url;
}

std::map<std::string, Value> Flatten(const ReferenceSet& r) {
  std::map<std::string, Value> out;
  for (const Entry& e : r.entries) out[e.key] = Value{false, e.value, {}, {}};
  for (const ArrayRefs& a : r.arrays) {
    for (size_t i = 0; i < a.size(); ++i) {
      Value v{true, {}, a.Get(i), {}};
      if (v.ref.kind != RefKind::kInline) v.url = RelativeUrl(r.urls[v.ref.url]);
      out[a.KeyPrefix() + a.grid().Key(a.chunk_index(i))] = v;
    }
  }
  return out;
}

struct Comparison {
  std::vector<std::string> differences;
  int metadata = 0, same_refs = 0, inlined_by_python = 0, coordinate = 0;
};

json::Value Parse(const EntryValue& v) { return *json::Value::Parse(v.data); }

// The coordinate's .zarray without the encoding fields (documented difference).
json::Value WithoutEncoding(json::Value zarray) {
  for (const char* field : {"chunks", "compressor", "filters", "fill_value"}) zarray.Erase(field);
  return zarray;
}

Result<std::string> DecodeInline(const Value& v, const EntryValue& zarray) {
  KERCHUNK_ASSIGN_OR_RETURN(ZarrArrayMeta meta, ZarrArrayMeta::Parse(zarray.data));
  KERCHUNK_ASSIGN_OR_RETURN(codecs::Pipeline p, codecs::Pipeline::FromZarray(meta));
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t size, codecs::DecodedChunkSize(meta));
  return p.Decode(v.ref.data, size);
}

void CompareKey(const std::string& key, const Value& ours, const Value& theirs,
                const std::map<std::string, Value>& our_all,
                const std::map<std::string, Value>& their_all, Comparison& c) {
  auto differ = [&](const std::string& what) { c.differences.push_back(key + ": " + what); };
  if (!ours.chunk) {
    json::Value a = Parse(ours.entry), b = Parse(theirs.entry);
    if (key == "time/.zarray") {
      a = WithoutEncoding(a);
      b = WithoutEncoding(b);
    }
    if (!(a == b)) differ("ours " + a.Dump().substr(0, 300) + " vs " + b.Dump().substr(0, 300));
    ++c.metadata;
    return;
  }
  if (key.starts_with("time/")) {  // the coordinate: compare decoded values
    auto a = DecodeInline(ours, our_all.at("time/.zarray").entry);
    auto b = DecodeInline(theirs, their_all.at("time/.zarray").entry);
    if (!a.ok() || !b.ok() || *a != *b) differ("coordinate values differ");
    ++c.coordinate;
    return;
  }
  if (theirs.ref.kind == RefKind::kInline && ours.ref.kind == RefKind::kRange) {
    auto bytes = ReadFileRange((*testing::SharedDir() / ours.url).string(), ours.ref.offset,
                               ours.ref.length);
    if (!bytes.ok() || *bytes != theirs.ref.data) differ("bytes differ from Python's inline data");
    ++c.inlined_by_python;
    return;
  }
  if (ours.ref.kind != theirs.ref.kind || ours.url != theirs.url ||
      ours.ref.offset != theirs.ref.offset || ours.ref.length != theirs.ref.length ||
      ours.ref.data != theirs.ref.data) {
    differ(fmt::format("ours [{}, {}, {}] vs [{}, {}, {}]", ours.url, ours.ref.offset,
                       ours.ref.length, theirs.url, theirs.ref.offset, theirs.ref.length));
  }
  ++c.same_refs;
}

Comparison Compare(const ReferenceSet& ours, const ReferenceSet& theirs) {
  Comparison c;
  auto a = Flatten(ours), b = Flatten(theirs);
  for (const auto& [key, v] : a) {
    if (!b.count(key)) c.differences.push_back(key + ": only in ours");
  }
  for (const auto& [key, v] : b) {
    auto it = a.find(key);
    if (it == a.end()) {
      c.differences.push_back(key + ": only in Python's");
      continue;
    }
    CompareKey(key, it->second, v, a, b, c);
  }
  return c;
}

std::string Report(const Comparison& c) {
  std::string report;
  for (size_t i = 0; i < std::min<size_t>(c.differences.size(), 20); ++i) {
    report += "\n  " + c.differences[i];
  }
  return report;
}

class CombineCorpusTest : public ::testing::TestWithParam<std::string> {};

// Sets whose files overlap completely along time (four files per time value, split along lat and
// lon): Python keeps the last file of each value and loses the rest. We refuse that by default
// and compare with --on-overlap later, MultiZarrToZarr's rule.
bool OverlapsCompletely(const std::string& set) {
  return set == "nc4_contiguous_padocc_3DAgg_time+lat+lon_8files";
}

TEST_P(CombineCorpusTest, MatchesMultiZarrToZarr) {
  const std::string set = GetParam();
  std::vector<fs::path> files;
  for (auto& e : fs::directory_iterator(TimeseriesDir() / set)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<ReferenceSet> parts;
  for (const auto& f : files) {
    auto part = ReadKerchunkFile(f.string());
    ASSERT_TRUE(part.ok()) << part.status().ToString();
    parts.push_back(std::move(*part));
  }
  CombineOptions options;
  options.identical_dims = IdenticalDims(set);
  ASSERT_FALSE(options.identical_dims.empty()) << "log.json has no identical_dims for " << set;
  const fs::path shared = *testing::SharedDir();
  options.url_to_path = [&](std::string_view url) -> Result<std::string> {
    return (shared / url).string();  // Python's URLs are relative to ../shared
  };
  if (OverlapsCompletely(set)) {
    auto refused = CombineReferenceSets(parts, options);
    ASSERT_FALSE(refused.ok());
    EXPECT_THAT(refused.status().message(), ::testing::HasSubstr("adds nothing along \"time\""));
    options.on_overlap = OnOverlap::kLater;
  }
  std::vector<std::string> warnings;
  auto ours = CombineReferenceSets(std::move(parts), options, &warnings);
  ASSERT_TRUE(ours.ok()) << ours.status().ToString();
  auto theirs = ReadKerchunkFile((TimeseriesDir() / (set + ".combined.json")).string());
  ASSERT_TRUE(theirs.ok()) << theirs.status().ToString();
  Comparison c = Compare(*ours, *theirs);
  EXPECT_TRUE(c.differences.empty()) << c.differences.size() << " differences:" << Report(c);
  EXPECT_GT(c.same_refs + c.inlined_by_python, 0);
  EXPECT_EQ(c.coordinate, 1);
  std::cout << "[ " << set << " ] " << files.size() << " files: " << c.metadata
            << " metadata keys, " << c.same_refs << " identical references, " << c.inlined_by_python
            << " chunks Python inlined (bytes equal), " << c.coordinate
            << " coordinate chunk (values equal), " << warnings.size() << " warnings\n";
  for (const auto& w : warnings) std::cout << "  warning: " << w << "\n";
}

// The same comparison for `kerchunk scan` of the raw files (our per-file translation and our
// combine together). Skips when the program has not been built.
TEST_P(CombineCorpusTest, ScanOfRawFilesMatchesMultiZarrToZarr) {
  const std::string set = GetParam();
  std::string program = testing::KerchunkBinary();
  if (program.empty() || !fs::exists(program)) GTEST_SKIP() << "kerchunk program not built";
  testing::TempDir dir;
  std::string output = dir / "scan.json";
  std::string dims;
  for (const auto& d : IdenticalDims(set)) dims += (dims.empty() ? "" : ",") + d;
  auto run = testing::RunCommand(
      fmt::format("cd {} && {} scan {} -o {} -q --concat-dim time --identical-dims {}{}",
                  testing::ShellQuote(testing::SharedDir()->string()), testing::ShellQuote(program),
                  testing::ShellQuote("data/timeseries/" + set), testing::ShellQuote(output),
                  testing::ShellQuote(dims), OverlapsCompletely(set) ? " --on-overlap later" : ""));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto ours = ReadKerchunkFile(output);
  ASSERT_TRUE(ours.ok()) << ours.status().ToString();
  auto theirs = ReadKerchunkFile((TimeseriesDir() / (set + ".combined.json")).string());
  ASSERT_TRUE(theirs.ok());
  Comparison c = Compare(*ours, *theirs);
  EXPECT_TRUE(c.differences.empty()) << c.differences.size() << " differences:" << Report(c);
  EXPECT_EQ(c.coordinate, 1);
  std::cout << "[ scan " << set << " ] " << c.metadata << " metadata keys, " << c.same_refs
            << " identical references, " << c.inlined_by_python << " chunks Python inlined\n";
}

std::vector<std::string> CombinedSets() {
  std::vector<std::string> sets;
  if (!testing::ExpectedDir()) return sets;
  for (auto& e : fs::directory_iterator(TimeseriesDir())) {
    std::string name = e.path().filename();
    const std::string suffix = ".combined.json";
    if (name.ends_with(suffix)) sets.push_back(name.substr(0, name.size() - suffix.size()));
  }
  std::sort(sets.begin(), sets.end());
  return sets;
}

INSTANTIATE_TEST_SUITE_P(Timeseries, CombineCorpusTest, ::testing::ValuesIn(CombinedSets()),
                         [](const auto& param_info) {
                           std::string name = param_info.param;
                           for (auto& ch : name) {
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CombineCorpusTest);

}  // namespace
}  // namespace kerchunk
