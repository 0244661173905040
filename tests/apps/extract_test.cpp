// What `kerchunk unpack --select ... --metadata` adds so that the extract opens alone: every
// chunk of the dimension coordinates (time, lat, lon) and of the grid mapping the variable
// names (crs), and of the selected variable only the selected chunks. (That xarray opens it is
// extract_client_test.cpp.)
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "apps/apps_testing.h"
#include "kerchunk/json/kerchunk_json.h"

namespace kerchunk::testing {
namespace {

using CliExtractTest = CliGuardTest;

TEST_F(CliExtractTest, SelectionWithMetadataBringsTheCoordinates) {
  const std::string packed = Scratch("refs.packed.json"), extract = Scratch("last.json");
  ASSERT_EQ(RunKerchunk("pack -q " + ShellQuote(Refs()) + " -o " + ShellQuote(packed)).exit_code,
            0);
  auto r = RunKerchunk("unpack " + ShellQuote(packed) + " --select 'tas[-1]' --metadata -o " +
                       ShellQuote(extract));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto all = ReadKerchunkFile(Refs());
  auto part = ReadKerchunkFile(extract);
  ASSERT_TRUE(all.ok() && part.ok());
  for (const char* coordinate : {"time", "lat", "lon", "crs"}) {
    const ArrayRefs* whole = all->FindArray(coordinate);
    const ArrayRefs* got = part->FindArray(coordinate);
    const uint64_t expected = whole ? whole->size() : 0;
    EXPECT_EQ(got ? got->size() : 0, expected) << coordinate;
    EXPECT_GT(expected + (all->FindEntry(std::string(coordinate) + "/0") != nullptr), 0u)
        << coordinate << " has chunks in the full index";
  }
  ASSERT_NE(part->FindArray("tas"), nullptr);
  EXPECT_EQ(part->FindArray("tas")->size(), 4u);  // the last step: 2 x 2 chunks
  const ArrayRefs* pr = part->FindArray("pr");    // not asked for, not needed to open
  EXPECT_EQ(pr ? pr->size() : 0, 0u);
  // Without --metadata a selection is only its chunks.
  auto bare =
      RunKerchunk("unpack " + ShellQuote(packed) + " --select 'tas[-1]' -o " + ShellQuote(extract));
  ASSERT_EQ(bare.exit_code, 0) << bare.err;
  auto only = ReadKerchunkFile(extract);
  ASSERT_TRUE(only.ok());
  const ArrayRefs* time = only->FindArray("time");
  EXPECT_EQ(time ? time->size() : 0, 0u);
}

}  // namespace
}  // namespace kerchunk::testing
