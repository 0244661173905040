// The walker on damaged files: truncated and byte-flipped copies of generated files of every
// index type must give a result or an error, never a crash or a hang (run under the sanitizer
// build); specific damage gives DataLoss naming the structure and its address.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>

#include "hdf5/chunk_oracle.h"
#include "kerchunk/hdf5/chunk_index.h"
#include "kerchunk/hdf5/object_header.h"
#include "support/hdf5_fixtures.h"
#include "support/test_env.h"

namespace kerchunk::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

const char* const kTypes[] = {"btree1",       "single", "implicit", "farray",
                              "farray_paged", "earray", "btree2"};

// Opens, reads the layout and walks; returns the walk's status and counts chunks.
Status Walk(std::span<const std::byte> bytes, const hdf5::ChunkedDatasetInfo& info,
            size_t* chunks = nullptr) {
  KERCHUNK_ASSIGN_OR_RETURN(auto file, hdf5::File::Open(bytes));
  KERCHUNK_ASSIGN_OR_RETURN(auto layout, hdf5::ReadDataLayout(file, info.object_header_address));
  size_t n = 0;
  Status s = hdf5::WalkChunkIndex(file, layout, info,
                                  [&](std::span<const uint64_t>, uint64_t, uint64_t, uint32_t) {
                                    ++n;
                                    return OkStatus();
                                  });
  if (chunks) *chunks = n;
  return s;
}

struct Fixture {
  std::vector<std::byte> bytes;
  hdf5::ChunkedDatasetInfo info;
};

Fixture Make(const TempDir& dir, const char* type) {
  auto path = WriteSmallIndexFixture(dir.path(), type);
  EXPECT_TRUE(path.ok()) << path.status().ToString();
  auto info = DatasetInfo(*path, "/data");
  EXPECT_TRUE(info.ok());
  return {ReadBytes(*path), *info};
}

class ChunkIndexCorruptionTest : public ::testing::TestWithParam<const char*> {
 protected:
  TempDir dir_;
};

TEST_P(ChunkIndexCorruptionTest, TruncatedCopiesFailCleanly) {
  Fixture f = Make(dir_, GetParam());
  ASSERT_TRUE(Walk(f.bytes, f.info).ok());
  for (size_t size = 0; size < f.bytes.size(); size += 1 + size / 50) {
    std::vector<std::byte> copy(f.bytes.begin(), f.bytes.begin() + size);
    Status s = Walk(copy, f.info);
    if (!s.ok()) {
      EXPECT_NE(s.code(), StatusCode::kInternal) << s.ToString();
    }
  }
}

TEST_P(ChunkIndexCorruptionTest, ByteFlippedCopiesNeverCrash) {
  Fixture f = Make(dir_, GetParam());
  std::mt19937_64 rng(20240601);
  std::uniform_int_distribution<size_t> where(0, f.bytes.size() - 1);
  std::uniform_int_distribution<int> value(0, 255), count(1, 4);
  size_t failed = 0;
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::byte> copy = f.bytes;
    for (int k = count(rng); k > 0; --k) copy[where(rng)] = std::byte(value(rng));
    Status s = Walk(copy, f.info);
    failed += !s.ok();
    if (!s.ok()) {
      EXPECT_NE(s.code(), StatusCode::kInternal) << s.ToString();
    }
  }
  RecordProperty("failed_walks", static_cast<int>(failed));
}

INSTANTIATE_TEST_SUITE_P(IndexTypes, ChunkIndexCorruptionTest, ::testing::ValuesIn(kTypes));

// The layout message of the fixture's dataset, and the file offset of its index address (the
// last address-sized field of a version 3/4 chunked layout message written by libhdf5 1.10).
struct LayoutField {
  hdf5::DataLayout layout;
  uint64_t address_field = 0;
};

LayoutField FindLayout(const Fixture& f) {
  auto file = hdf5::File::Open(f.bytes);
  EXPECT_TRUE(file.ok());
  auto message =
      hdf5::FindHeaderMessage(*file, f.info.object_header_address, hdf5::kDataLayoutMessage);
  EXPECT_TRUE(message.ok());
  auto layout = hdf5::DecodeDataLayout(*file, *message);
  EXPECT_TRUE(layout.ok());
  uint64_t field = layout->version == 3 ? message->file_offset + 3
                                        : message->file_offset + message->data.size() - 8;
  return {*layout, field};
}

void PutU64(std::vector<std::byte>& bytes, uint64_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) bytes[at + i] = std::byte((v >> (8 * i)) & 0xff);
}
uint64_t GetU64(const std::vector<std::byte>& bytes, uint64_t at) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(std::to_integer<uint8_t>(bytes[at + i])) << (8 * i);
  return v;
}

TEST_P(ChunkIndexCorruptionTest, IndexAddressPastEndOfFile) {
  if (std::string(GetParam()) == "single" || std::string(GetParam()) == "implicit") {
    GTEST_SKIP() << "the index address is the chunk data itself";
  }
  Fixture f = Make(dir_, GetParam());
  LayoutField lf = FindLayout(f);
  ASSERT_EQ(GetU64(f.bytes, lf.address_field), lf.layout.index_address);
  const uint64_t bad = f.bytes.size() + 4096;
  PutU64(f.bytes, lf.address_field, bad);
  Status s = Walk(f.bytes, f.info);
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), AllOf(HasSubstr(fmt::format("at address {}", bad)),
                                 HasSubstr("past the end of the file")));
}

TEST_P(ChunkIndexCorruptionTest, BadSignature) {
  if (std::string(GetParam()) == "single" || std::string(GetParam()) == "implicit") {
    GTEST_SKIP() << "no index structure";
  }
  Fixture f = Make(dir_, GetParam());
  LayoutField lf = FindLayout(f);
  const uint64_t at = lf.layout.index_address;
  const std::string expected(reinterpret_cast<const char*>(&f.bytes[at]), 4);
  for (int i = 0; i < 4; ++i) f.bytes[at + i] = std::byte{'X'};
  Status s = Walk(f.bytes, f.info);
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(),
              HasSubstr(fmt::format("at address {}: expected signature \"{}\", got \"XXXX\"", at,
                                    expected)));
}

// v1 B-tree node layout (8-byte addresses, rank 1): 24-byte header, then key (8 + 16 bytes)
// and child address alternately.
constexpr uint64_t kBTreeV1Header = 24, kBTreeV1Key = 24;

TEST(ChunkIndexCorruption, BTreeV1SharedChildIsDataLoss) {
  TempDir dir;
  Fixture f = Make(dir, "btree1");
  const uint64_t root = FindLayout(f).layout.index_address;
  ASSERT_EQ(std::to_integer<int>(f.bytes[root + 5]), 1) << "fixture root should be level 1";
  const uint64_t child0 = root + kBTreeV1Header + kBTreeV1Key;
  const uint64_t child1 = child0 + 8 + kBTreeV1Key;
  const uint64_t leaf = GetU64(f.bytes, child0);
  PutU64(f.bytes, child1, leaf);
  Status s = Walk(f.bytes, f.info);
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), AllOf(HasSubstr(fmt::format("v1 B-tree node at address {}", leaf)),
                                 HasSubstr("reached a second time")));
}

TEST(ChunkIndexCorruption, BTreeV1CycleIsDataLoss) {
  TempDir dir;
  Fixture f = Make(dir, "btree1");
  const uint64_t root = FindLayout(f).layout.index_address;
  PutU64(f.bytes, root + kBTreeV1Header + kBTreeV1Key, root);  // first child -> root itself
  Status s = Walk(f.bytes, f.info);
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr(fmt::format("v1 B-tree node at address {}", root)));
}

TEST(ChunkIndexCorruption, ObjectHeaderContinuationCycleIsDataLoss) {
  // A version 1 object header whose only message continues into itself.
  std::vector<std::byte> bytes(256, std::byte{0});
  const std::string sig = "\x89HDF\r\n\x1a\n";
  std::memcpy(bytes.data(), sig.data(), sig.size());
  bytes[8] = std::byte{2};   // superblock version 2
  bytes[9] = std::byte{8};   // size of offsets
  bytes[10] = std::byte{8};  // size of lengths
  const uint64_t oh = 64;
  bytes[oh] = std::byte{1};          // version 1
  bytes[oh + 8] = std::byte{24};     // header size: one 8+16 byte message
  bytes[oh + 16] = std::byte{0x10};  // continuation message
  bytes[oh + 18] = std::byte{16};    // message size
  PutU64(bytes, oh + 24, oh + 16);   // continues at its own message
  PutU64(bytes, oh + 32, 24);
  auto file = hdf5::File::Open(bytes);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto layout = hdf5::ReadDataLayout(*file, oh);
  EXPECT_EQ(layout.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(layout.status().message(), HasSubstr("continuation cycle"));
}

// Writes the seed corpus of tests/fuzz/hdf5_index_fuzz.cpp: each small fixture with its
// dataset's object header address appended. Run with KERCHUNK_FUZZ_SEED_DIR set and
// --gtest_also_run_disabled_tests.
TEST(ChunkIndexFuzzSeeds, DISABLED_Write) {
  const char* out = std::getenv("KERCHUNK_FUZZ_SEED_DIR");
  ASSERT_NE(out, nullptr);
  TempDir dir;
  for (const char* type : kTypes) {
    Fixture f = Make(dir, type);
    for (int i = 0; i < 8; ++i) {
      f.bytes.push_back(std::byte((f.info.object_header_address >> (8 * i)) & 0xff));
    }
    std::ofstream(std::string(out) + "/seed_" + type, std::ios::binary)
        .write(reinterpret_cast<const char*>(f.bytes.data()), f.bytes.size());
  }
}

}  // namespace
}  // namespace kerchunk::testing
