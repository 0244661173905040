// `kerchunk scan` and `kerchunk combine` with an output ending in ".packed.json" write the
// packed form straight from the reference model (issue 15): the file is byte for byte what
// scan (or combine) to JSON followed by `kerchunk pack` writes, source record included, and
// the memory stays that of the model: no Kerchunk JSON of every reference is built.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "../scan/cli_testing.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/pack/packed_index.h"
#include "kerchunk/util/file_io.h"
#include "support/scan_fixtures.h"

namespace kerchunk {
namespace {

using testing::ShellQuote;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;  // shadow memory and quarantine inflate the resident set
#else
constexpr bool kSanitized = false;
#endif

std::string Kerchunk(const std::string& args) {
  auto r = testing::RunKerchunk(args);
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  return r.out;
}

std::string Read(const std::string& path) {
  auto text = ReadFileToString(path);
  EXPECT_TRUE(text.ok()) << text.status().message();
  return text.ok() ? *text : std::string();
}

class DirectPackedOutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::SeriesSpec spec;
    spec.files = 4;
    auto paths = testing::WriteSeries(dir_.path(), spec);
    ASSERT_TRUE(paths.ok()) << paths.status().message();
    for (const auto& p : *paths) files_ += " " + ShellQuote(p);
  }
  testing::TempDir dir_;
  std::string files_;
};

TEST_F(DirectPackedOutputTest, ScanWritesWhatScanThenPackWrites) {
  Kerchunk("scan -q" + files_ + " --concat-dim time -o " + ShellQuote(dir_ / "direct.packed.json"));
  Kerchunk("scan -q" + files_ + " --concat-dim time -o " + ShellQuote(dir_ / "refs.json"));
  Kerchunk("pack -q " + ShellQuote(dir_ / "refs.json") + " -o " +
           ShellQuote(dir_ / "via.packed.json"));
  std::string direct = Read(dir_ / "direct.packed.json");
  EXPECT_TRUE(pack::LooksPacked(direct)) << direct.substr(0, 80);
  EXPECT_EQ(direct, Read(dir_ / "via.packed.json"));
  // The source record travels along inside the container.
  auto record = pack::ReadIndexSourceRecord(dir_ / "direct.packed.json");
  ASSERT_TRUE(record.ok() && record->has_value()) << record.status().message();
  EXPECT_EQ((*record)->size(), 4u);
  // And it expands to the scan's references exactly (unpack checks the checksum too).
  Kerchunk("unpack -q " + ShellQuote(dir_ / "direct.packed.json") + " -o " +
           ShellQuote(dir_ / "back.json"));
  EXPECT_EQ(Read(dir_ / "back.json"), Read(dir_ / "refs.json"));
}

TEST_F(DirectPackedOutputTest, CombineWritesWhatCombineThenPackWrites) {
  const std::string parts = ShellQuote(dir_ / "part-*.json");
  Kerchunk("scan -q" + files_ + " --shard 0/2 --concat-dim time -o " +
           ShellQuote(dir_ / "part-1.json"));
  Kerchunk("scan -q" + files_ + " --shard 1/2 --concat-dim time -o " +
           ShellQuote(dir_ / "part-2.json"));
  Kerchunk("combine -q " + parts + " --concat-dim time -o " + ShellQuote(dir_ / "all.packed.json"));
  Kerchunk("combine -q " + parts + " --concat-dim time -o " + ShellQuote(dir_ / "all.json"));
  Kerchunk("pack -q " + ShellQuote(dir_ / "all.json") + " -o " +
           ShellQuote(dir_ / "via.packed.json"));
  EXPECT_EQ(Read(dir_ / "all.packed.json"), Read(dir_ / "via.packed.json"));
}

TEST_F(DirectPackedOutputTest, SummarySaysPacked) {
  testing::CommandResult r = testing::RunKerchunk("scan" + files_ + " --concat-dim time -o " +
                                                  ShellQuote(dir_ / "x.packed.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find(" packed, peak memory"), std::string::npos) << r.err;
}

// --packed asks for the packed form whatever the output's name, standard output included.
TEST_F(DirectPackedOutputTest, PackedOptionWritesThePackedFormUnderAnyName) {
  Kerchunk("scan -q" + files_ + " --concat-dim time -o " + ShellQuote(dir_ / "named.packed.json"));
  Kerchunk("scan -q --packed" + files_ + " --concat-dim time -o " + ShellQuote(dir_ / "refs.idx"));
  EXPECT_EQ(Read(dir_ / "refs.idx"), Read(dir_ / "named.packed.json"));
  testing::CommandResult out =
      testing::RunKerchunk("scan -q --packed" + files_ + " --concat-dim time -o -");
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_TRUE(pack::LooksPacked(out.out));
  auto index = pack::PackedIndex::Parse(out.out);
  ASSERT_TRUE(index.ok()) << index.status().message();
  auto refs = index->UnpackAll();
  ASSERT_TRUE(refs.ok());
  auto named = pack::PackedIndex::Open(dir_ / "named.packed.json");
  ASSERT_TRUE(named.ok());
  EXPECT_EQ(index->checksum(), named->checksum());
  // combine too.
  Kerchunk("scan -q" + files_ + " --concat-dim time -o " + ShellQuote(dir_ / "all.json"));
  Kerchunk("combine -q --packed " + ShellQuote(dir_ / "all.json") + " -o " +
           ShellQuote(dir_ / "combined.idx"));
  EXPECT_TRUE(pack::IsPackedFile(dir_ / "combined.idx"));
}

// A million references: neither route holds the whole output text. Packed is built from the
// columns in memory; JSON is streamed to the file piece by piece. So the JSON route's peak
// stays within a quarter of its text's size of the packed route's (before streaming, the ~40 MB
// text made it the larger by all of that).
TEST(DirectPackedMemoryTest, MillionReferencesPackedWithoutTheJson) {
  testing::TempDir dir;
  auto path = testing::WriteManyChunksHdf5(dir.path() / "many.h5", 1'000'000);
  ASSERT_TRUE(path.ok()) << path.status().message();
  auto peak = [&](const std::string& output) {
    auto summary = json::Value::Parse(
        Kerchunk("scan -q --format json " + ShellQuote(*path) + " -o " + ShellQuote(dir / output)));
    EXPECT_TRUE(summary.ok());
    return summary.ok() ? summary->Find("peak_rss_bytes")->as_double() : 0.0;
  };
  const double packed = peak("refs.packed.json"), json = peak("refs.json");
  const double text = static_cast<double>(std::filesystem::file_size(dir / "refs.json"));
  std::printf("1 file, 1 M refs: peak RSS %.0f MiB packed, %.0f MiB JSON (%.0f MiB of text)\n",
              packed / (1 << 20), json / (1 << 20), text / (1 << 20));
  if (kSanitized) GTEST_SKIP() << "resident memory is not meaningful under AddressSanitizer";
  EXPECT_LT(json, packed + text / 4);
}

}  // namespace
}  // namespace kerchunk
