// `kerchunk verify` on generated indexes broken in each way issue #4 lists: every one must fail
// with exit status 1 and a message naming the key, the file and the byte range; unusable input
// must give exit status 2. The indexes are `kerchunk scan` outputs of generated NetCDF-4
// (deflate + shuffle) and NetCDF-3 (raw record) series.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "kerchunk/json/json_value.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/util/file_io.h"
#include "support/scan_fixtures.h"
#include "verify/verify_testing.h"

namespace kerchunk::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class VerifyCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    for (bool netcdf4 : {true, false}) {
      SeriesSpec spec;
      spec.netcdf4 = netcdf4;
      const fs::path data = dir_->path() / (netcdf4 ? "nc4" : "nc3");
      fs::create_directories(data);
      Result<std::vector<std::string>> files = WriteSeries(data, spec);
      ASSERT_TRUE(files.ok()) << files.status().ToString();
      const std::string refs = Refs(netcdf4);
      CommandResult scan =
          RunKerchunk("scan", ShellQuote(data.string()) + " -q -o " + ShellQuote(refs));
      ASSERT_EQ(scan.exit_code, 0) << scan.err;
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  static std::string Data(bool netcdf4) {
    return (dir_->path() / (netcdf4 ? "nc4" : "nc3")).string();
  }
  static std::string Refs(bool netcdf4) { return *dir_ / (netcdf4 ? "nc4.json" : "nc3.json"); }
  static std::string File(bool netcdf4, int i) {
    return (fs::path(Data(netcdf4)) / fmt::format("day_{:03}.nc", i)).string();
  }

  // A copy of the references edited by `edit`, in this test's scratch folder.
  std::string Edited(bool netcdf4, const std::function<void(ReferenceSet&)>& edit) {
    const std::string out = tmp_ / "edited.json";
    EditReferences(Refs(netcdf4), out, edit);
    return out;
  }

  static TempDir* dir_;
  TempDir tmp_;
};

TempDir* VerifyCliTest::dir_ = nullptr;

std::string LastLine(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t.substr(t.rfind('\n') == std::string::npos ? 0 : t.rfind('\n') + 1);
}

TEST_F(VerifyCliTest, GoodIndexesPassEveryCheck) {
  for (bool netcdf4 : {true, false}) {
    CommandResult r = RunVerify(ShellQuote(Refs(netcdf4)) + " --source --xarray -q");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(LastLine(r.out), "OK") << r.out;
    EXPECT_THAT(r.out, HasSubstr("  source    ok"));
    EXPECT_THAT(r.out, HasSubstr("  files     ok"));
  }
}

TEST_F(VerifyCliTest, TruncatedDataFileFailsTheFilesCheck) {
  const fs::path copy = tmp_.path() / "data";
  CopyFolder(Data(true), copy);
  const fs::path victim = copy / "day_002.nc";
  const uint64_t size = fs::file_size(victim);
  fs::resize_file(victim, size / 2);
  CommandResult r = RunVerify(ShellQuote(Refs(true)) + " -q --max-report 1000 --rewrite " +
                              ShellQuote(Data(true) + "=" + copy.string()));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("lie beyond the end of " + File(true, 2) + " (local " +
                               victim.string() + ")"));
  EXPECT_THAT(r.out, HasSubstr(fmt::format("({} bytes)", size / 2)));
  EXPECT_THAT(r.out, ::testing::ContainsRegex("files: [a-z]+/[0-9.]+: bytes \\[[0-9]+, [0-9]+\\)"));
}

TEST_F(VerifyCliTest, CompressedChunkShiftedByOneByte) {
  std::string key;
  uint64_t offset = 0, length = 0;
  const std::string refs = Edited(true, [&](ReferenceSet& set) {
    key = ChunkFollowedByAnother(set, "tas");
    ASSERT_FALSE(key.empty());
    EditChunk(set, key, [&](ChunkRef& r) {
      offset = ++r.offset;
      length = r.length;
    });
  });
  // Structure alone: the shifted range now overlaps the chunk after it.
  CommandResult structure = RunVerify(ShellQuote(refs) + " -q --no-files");
  EXPECT_EQ(structure.exit_code, 1) << structure.out;
  EXPECT_THAT(structure.out, HasSubstr(fmt::format("bytes [{}, {})", offset, offset + length)));
  EXPECT_THAT(structure.out, HasSubstr("overlap"));
  EXPECT_THAT(structure.out, HasSubstr(key));
  // --deep: the bytes no longer decode.
  CommandResult deep = RunVerify(ShellQuote(refs) + " -q --deep");
  EXPECT_EQ(deep.exit_code, 1) << deep.out;
  EXPECT_THAT(deep.out, HasSubstr(fmt::format("decode: {}: bytes [{}, {}) of {}", key, offset,
                                              offset + length, File(true, 0))));
}

TEST_F(VerifyCliTest, UncompressedChunkShiftedByOneByte) {
  std::string key;
  uint64_t offset = 0;
  const std::string refs = Edited(false, [&](ReferenceSet& set) {
    key = ChunkFollowedByAnother(set, "tas");
    ASSERT_FALSE(key.empty());
    EditChunk(set, key, [&](ChunkRef& r) { offset = ++r.offset; });
  });
  CommandResult structure = RunVerify(ShellQuote(refs) + " -q --no-files");
  EXPECT_EQ(structure.exit_code, 1) << structure.out;
  EXPECT_THAT(structure.out, HasSubstr("ranges: "));
  EXPECT_THAT(structure.out, HasSubstr("overlap"));
  // Raw bytes decode from anywhere: only the library comparison sees the values move.
  CommandResult source = RunVerify(ShellQuote(refs) + " -q --source");
  EXPECT_EQ(source.exit_code, 1) << source.out;
  EXPECT_THAT(source.out, HasSubstr(fmt::format("source: {}: element (", key)));
  EXPECT_THAT(source.out, HasSubstr("in the decoded chunk but"));
  EXPECT_THAT(source.out, HasSubstr("netCDF variable tas"));
}

TEST_F(VerifyCliTest, WrongLengthOfAnUncompressedChunk) {
  const std::string refs = Edited(false, [&](ReferenceSet& set) {
    EditChunk(set, "tas/2.0.0", [](ChunkRef& r) { r.length -= 4; });
  });
  CommandResult r = RunVerify(ShellQuote(refs) + " -q --no-files");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, ::testing::ContainsRegex(
                         "ranges: tas/2\\.0\\.0: bytes \\[[0-9]+, [0-9]+\\) of .*day_000\\.nc are "
                         "188 bytes, but an uncompressed chunk of tas \\(1 x 6 x 8 x 4-byte "
                         "items\\) is 192 bytes"));
}

TEST_F(VerifyCliTest, WrongLengthOfACompressedChunk) {
  std::string key;
  const std::string refs = Edited(true, [&](ReferenceSet& set) {
    key = ChunkFollowedByAnother(set, "tas");
    EditChunk(set, key, [](ChunkRef& r) { r.length -= 3; });
  });
  CommandResult r = RunVerify(ShellQuote(refs) + " -q --deep");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("decode: " + key + ": bytes ["));
  EXPECT_THAT(r.out, HasSubstr("do not decode to the chunk's"));
}

TEST_F(VerifyCliTest, ChunkKeyOutsideTheGrid) {
  const std::string refs = Edited(true, [](ReferenceSet& set) {
    EntryValue v;
    v.kind = EntryValue::Kind::kRange;
    v.url = 0;
    v.offset = 100;
    v.length = 10;
    set.entries.push_back({"tas/12.0.0", v});
  });
  CommandResult r = RunVerify(ShellQuote(refs) + " -q");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("keys: tas/12.0.0: chunk key of array tas lies outside the chunk "
                               "grid: index 12 in dimension 0, which has 12 chunks (shape [12, "
                               "6, 8], chunks [1, 3, 4])"));
}

TEST_F(VerifyCliTest, MissingZarray) {
  const std::string refs =
      Edited(true, [](ReferenceSet& set) { ASSERT_TRUE(set.RemoveEntry("tas/.zarray")); });
  CommandResult r = RunVerify(ShellQuote(refs) + " -q");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("keys: tas/0.0.0: reference to array tas, which has no "
                               "tas/.zarray"));
  EXPECT_THAT(r.out, HasSubstr("metadata: tas/.zattrs: attributes of nothing"));
}

TEST_F(VerifyCliTest, WrongFilterListThatStillDecodesIsCaughtBySource) {
  // Without its shuffle filter tas still inflates to the right size, but to other values.
  const std::string refs = Edited(true, [](ReferenceSet& set) {
    EditMetadata(set, "tas/.zarray", [](json::Value& z) {
      json::Value filters = json::Value::MakeArray();
      for (const json::Value& f : z.Find("filters")->as_array()) {
        if (f.Find("id")->as_string() != "shuffle") filters.Push(f);
      }
      ASSERT_LT(filters.as_array().size(), z.Find("filters")->as_array().size());
      z.Set("filters", filters);
    });
  });
  CommandResult deep = RunVerify(ShellQuote(refs) + " -q --deep");
  EXPECT_EQ(deep.exit_code, 0) << deep.out;
  CommandResult source = RunVerify(ShellQuote(refs) + " -q --source");
  EXPECT_EQ(source.exit_code, 1) << source.out;
  EXPECT_THAT(source.out, ::testing::ContainsRegex(
                              "source: tas/0\\.0\\.0: element \\(0, 0, [0-9]+\\) is .* in the "
                              "decoded chunk but .* in HDF5 dataset /tas"));
}

TEST_F(VerifyCliTest, WrongCompressorFailsToDecode) {
  const std::string refs = Edited(true, [](ReferenceSet& set) {
    EditMetadata(set, "tas/.zarray", [](json::Value& z) {
      json::Value filters = json::Value::MakeArray();
      for (const json::Value& f : z.Find("filters")->as_array()) {
        if (f.Find("id")->as_string() == "zlib") {
          json::Value zstd = json::Value::MakeObject();
          zstd.Set("id", json::Value::String("zstd"));
          filters.Push(zstd);
        } else {
          filters.Push(f);
        }
      }
      z.Set("filters", filters);
    });
  });
  CommandResult r = RunVerify(ShellQuote(refs) + " -q --deep");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, ::testing::ContainsRegex("decode: tas/0\\.0\\.0: bytes \\[[0-9]+, [0-9]+\\) "
                                              "of .*day_000\\.nc do not decode .*zstd"));
}

TEST_F(VerifyCliTest, UnknownCodecIsAMetadataProblem) {
  const std::string refs = Edited(true, [](ReferenceSet& set) {
    EditMetadata(set, "tas/.zarray", [](json::Value& z) {
      json::Value c = json::Value::MakeObject();
      c.Set("id", json::Value::String("zlibb"));
      z.Set("compressor", c);
    });
  });
  CommandResult r = RunVerify(ShellQuote(refs) + " -q");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("metadata: tas/.zarray: compressor: codec id \"zlibb\" is not "
                               "known to numcodecs"));
}

TEST_F(VerifyCliTest, FileSwappedForAnother) {
  const fs::path copy = tmp_.path() / "data";
  CopyFolder(Data(true), copy);
  fs::copy_file(copy / "day_002.nc", copy / "day_001.nc", fs::copy_options::overwrite_existing);
  CommandResult r = RunVerify(ShellQuote(Refs(true)) + " -q --source --rewrite " +
                              ShellQuote(Data(true) + "=" + copy.string()));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out,
              ::testing::ContainsRegex("(decode|source): [a-z]+/[0-9.]+: .*" + File(true, 1)));
}

TEST_F(VerifyCliTest, CorruptInlineChunk) {
  // One file: the original file of an inline chunk is known when the index names one file.
  const std::string inlined = tmp_ / "inline.json";
  CommandResult scan = RunKerchunk(
      "scan", ShellQuote(File(false, 0)) + " -q --inline-threshold 100 -o " + ShellQuote(inlined));
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  CommandResult good = RunVerify(ShellQuote(inlined) + " -q --source");
  EXPECT_EQ(good.exit_code, 0) << good.out;
  const std::string bad = tmp_ / "bad_inline.json";
  std::string flipped;
  EditReferences(inlined, bad, [&](ReferenceSet& set) {
    EditChunk(set, "lat/0", [&](ChunkRef& r) {
      ASSERT_EQ(r.kind, RefKind::kInline);
      flipped = std::string(r.data);
      flipped[1] ^= 0x40;
      r.data = flipped;
    });
  });
  CommandResult r = RunVerify(ShellQuote(bad) + " -q --source");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("source: lat/0: element (0) is"));
}

TEST_F(VerifyCliTest, PackedFileIsCheckedAgainstItsChecksum) {
  const std::string packed = tmp_ / "packed.json";
  CommandResult pack =
      RunKerchunk("pack", ShellQuote(Refs(true)) + " --readable -q -o " + ShellQuote(packed));
  ASSERT_EQ(pack.exit_code, 0) << pack.err;
  CommandResult good =
      RunVerify(ShellQuote(packed) + " -q --deep --against " + ShellQuote(Refs(true)));
  EXPECT_EQ(good.exit_code, 0) << good.out;
  EXPECT_THAT(good.out, HasSubstr("(packed, checksum kcd2:"));

  // A packed file whose generators expand to other references than the ones it was packed
  // from: the first file URL now names the second file.
  Result<std::string> text = ReadFileToString(packed);
  ASSERT_TRUE(text.ok());
  const std::string from = File(true, 0), to = File(true, 1);
  const size_t at = text->find("\"urls\"");
  ASSERT_NE(at, std::string::npos);
  const size_t url = text->find(from, at);
  ASSERT_NE(url, std::string::npos);
  std::string tampered = *text;
  tampered.replace(url, from.size(), fs::path(to).parent_path().string() + "/dax_000.nc");
  const std::string bad = tmp_ / "tampered.json";
  ASSERT_TRUE(WriteFileAtomically(bad, tampered).ok());
  CommandResult r = RunVerify(ShellQuote(bad) + " -q");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("document: packed file " + bad));
  EXPECT_THAT(r.out, HasSubstr("checksum"));
}

TEST_F(VerifyCliTest, AgainstReportsEachKindOfDifference) {
  std::string changed_key;
  const std::string other = Edited(true, [&](ReferenceSet& set) {
    changed_key = ChunkFollowedByAnother(set, "tas");
    EditChunk(set, changed_key, [](ChunkRef& r) { r.length += 1; });
    ASSERT_TRUE(set.RemoveEntry("pr/.zattrs"));
    EditMetadata(set, "tas/.zattrs",
                 [](json::Value& a) { a.Set("units", json::Value::String("degC")); });
    set.SetText("extra/.zgroup", "{\"zarr_format\":2}");
  });
  CommandResult r = RunVerify(ShellQuote(Refs(true)) + " -q --no-files --format json --against " +
                              ShellQuote(other));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  Result<json::Value> doc = json::Value::Parse(r.out);
  ASSERT_TRUE(doc.ok()) << r.out;
  const json::Value* against = doc->Find("against");
  ASSERT_NE(against, nullptr);
  EXPECT_EQ(against->Find("only_in_input")->as_int(), 1);  // pr/.zattrs
  EXPECT_EQ(against->Find("only_in_other")->as_int(), 1);  // extra/.zgroup
  EXPECT_EQ(against->Find("metadata")->as_int(), 1);       // tas/.zattrs
  EXPECT_EQ(against->Find("references")->as_int(), 1);
  std::string messages;
  for (const json::Value& p : doc->Find("problems")->as_array()) {
    messages += p.Find("message")->as_string() + "\n";
  }
  EXPECT_THAT(messages, HasSubstr("pr/.zattrs: only in " + Refs(true)));
  EXPECT_THAT(messages, HasSubstr("extra/.zgroup: only in " + other));
  EXPECT_THAT(messages, HasSubstr("tas/.zattrs: metadata differs: \"units\""));
  EXPECT_THAT(messages, HasSubstr(changed_key + ": [\""));
}

TEST_F(VerifyCliTest, CouldNotRunIsExitStatusTwo) {
  EXPECT_EQ(RunVerify(ShellQuote(tmp_ / "missing.json")).exit_code, 2);
  EXPECT_EQ(RunVerify(ShellQuote(Refs(true)) + " --sample 0").exit_code, 2);
  EXPECT_EQ(RunVerify(ShellQuote(Refs(true)) + " --files --no-files").exit_code, 2);
  EXPECT_EQ(
      RunVerify(ShellQuote(Refs(true)) + " --against " + ShellQuote(tmp_ / "no.json")).exit_code,
      2);
  EXPECT_EQ(RunVerify("--no-such-option " + ShellQuote(Refs(true))).exit_code, 2);
  // --deep needs every file; a URL of a scheme verify cannot read, without --rewrite, is a
  // usage error (http(s):// and s3:// are read over the network: remote_verify_test).
  const std::string remote = Edited(true, [](ReferenceSet& set) {
    ASSERT_TRUE(set.urls.Rename(0, "gs://bucket/day_000.nc").ok());
  });
  CommandResult deep = RunVerify(ShellQuote(remote) + " --deep");
  EXPECT_EQ(deep.exit_code, 2);
  EXPECT_THAT(deep.err, HasSubstr("gs://bucket/day_000.nc has no local path and is not "
                                  "http(s):// or s3://; give --rewrite"));
  // Without --deep or --files a remote URL is noted, not fetched, and the rest checked.
  const std::string s3 = Edited(true, [](ReferenceSet& set) {
    ASSERT_TRUE(set.urls.Rename(0, "s3://bucket/day_000.nc").ok());
  });
  CommandResult plain = RunVerify(ShellQuote(s3) + " -q");
  EXPECT_EQ(plain.exit_code, 0) << plain.out;
  EXPECT_THAT(plain.out, HasSubstr("note: 1 URL (e.g. s3://bucket/day_000.nc) not checked"));
}

TEST_F(VerifyCliTest, InvalidJsonIsAFailedDocumentCheck) {
  const std::string broken = tmp_ / "broken.json";
  ASSERT_TRUE(WriteFileAtomically(broken, "{\"version\": 1, \"refs\": {\"a\": [1, 2").ok());
  CommandResult r = RunVerify(ShellQuote(broken));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("document: " + broken));
}

TEST_F(VerifyCliTest, JsonAndJunitReportsParse) {
  const std::string refs = Edited(true, [](ReferenceSet& set) {
    set.SetText("a<&\"'>/.zattrs", "[1]");  // a name that needs escaping in XML
  });
  const std::string junit = tmp_ / "verify.xml";
  CommandResult r = RunVerify(ShellQuote(refs) + " -q --format json --junit " + ShellQuote(junit));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  Result<json::Value> doc = json::Value::Parse(r.out);
  ASSERT_TRUE(doc.ok()) << r.out;
  EXPECT_FALSE(doc->Find("passed")->as_bool());
  EXPECT_EQ(doc->Find("failures")->as_int(), 1);
  EXPECT_EQ(doc->Find("problems")->as_array()[0].Find("check")->as_string(), "metadata");
  EXPECT_TRUE(doc->Find("checks")->Find("files")->Find("ran")->as_bool());
  if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3 to parse the XML";
  CommandResult xml = RunCommand(
      "/usr/bin/python3 -c \"import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1])"
      ".getroot(); print(r.tag, len(r), sum(len(s.findall('testcase/failure')) for s in r), "
      "r.find(\\\"testsuite[@name='metadata']/testcase/failure\\\").get('message'))\" " +
      ShellQuote(junit));
  ASSERT_EQ(xml.exit_code, 0) << xml.err;
  EXPECT_THAT(xml.out, HasSubstr("testsuites 6 1 1 problem: a<&\"'>/.zattrs: expected a JSON "
                                 "object, got [1]"));
}

TEST_F(VerifyCliTest, HelpHasExamplesAndArgv0Dispatch) {
  CommandResult help = RunVerify("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("Examples:"));
  EXPECT_THAT(help.out, HasSubstr("--sample"));
  const std::string alias = (fs::path(KerchunkBinary()).parent_path() / "kerchunk-verify").string();
  CommandResult r = RunCommand(ShellQuote(alias) + " -q " + ShellQuote(Refs(false)));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

}  // namespace
}  // namespace kerchunk::testing
