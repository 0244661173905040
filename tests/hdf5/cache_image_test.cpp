// The metadata cache image: generated files whose metadata libhdf5 keeps only in the image block
// (the chunk walk against H5Dget_chunk_info, the block where H5Fget_mdc_image_info puts it), and
// corrupt blocks (truncated, every byte flipped, fields changed under a valid checksum) refused
// with one-line errors.
#include "kerchunk/hdf5/cache_image.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string_view>

#include "hdf5/checksum.h"
#include "hdf5/chunk_oracle.h"
#include "hdf5/h5_library.h"
#include "hdf5/oracle_check.h"
#include "kerchunk/hdf5/object_header.h"
#include "kerchunk/scan/file_scan.h"
#include "kerchunk/util/file_io.h"
#include "support/child_process.h"
#include "support/hdf5_fixtures.h"
#include "support/test_env.h"

namespace kerchunk::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// The image block as libhdf5 finds it (a read-only open leaves the image in the file).
Result<hdf5::CacheImageLocation> LibraryImageLocation(const std::string& path) {
  KERCHUNK_ASSIGN_OR_RETURN(hdf5::Handle file, hdf5::OpenFileReadOnly(path));
  haddr_t address = 0;
  hsize_t size = 0;
  KERCHUNK_RETURN_IF_ERROR(
      hdf5::Check(H5Fget_mdc_image_info(file.get(), &address, &size), "image info"));
  return hdf5::CacheImageLocation{address, size};
}

// The location and entries of a file's image, read from the bytes as stored.
struct StoredImage {
  hdf5::CacheImageLocation where;
  std::vector<hdf5::CacheImageEntry> entries;
};

Result<StoredImage> ReadStoredImage(std::span<const std::byte> bytes) {
  KERCHUNK_ASSIGN_OR_RETURN(hdf5::Superblock sb, hdf5::ReadSuperblock(bytes));
  const hdf5::File plain(bytes, sb);
  KERCHUNK_ASSIGN_OR_RETURN(
      hdf5::HeaderMessage message,
      hdf5::FindHeaderMessage(plain, sb.extension_address, hdf5::kMetadataCacheImageMessage));
  StoredImage image;
  KERCHUNK_ASSIGN_OR_RETURN(image.where,
                            hdf5::DecodeCacheImageMessage(plain, message.Reader("message")));
  KERCHUNK_ASSIGN_OR_RETURN(image.entries, hdf5::ReadCacheImageBlock(plain, image.where));
  return image;
}

class CacheImageFixtureTest : public ::testing::TestWithParam<bool> {
 protected:
  TempDir dir_;
};

// Every chunked dataset: the native walk over the overlay reports exactly libhdf5's chunks.
void ExpectChunksMatchLibrary(const std::string& path, size_t datasets) {
  hdf5::SilenceLibraryErrors();
  auto names = ListChunkedDatasets(path);
  ASSERT_TRUE(names.ok()) << names.status().ToString();
  EXPECT_EQ(names->size(), datasets);
  for (const auto& name : *names) {
    SCOPED_TRACE(name);
    // Every fixture dataset has chunks; an unsupported or failed walk would count none.
    EXPECT_GT(ExpectDatasetMatchesLibrary(path, name), 0u);
  }
}

TEST_P(CacheImageFixtureTest, ChunkIndexesInTheImageMatchLibrary) {
  auto path = WriteCacheImageFixture(dir_.path(), GetParam());
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  KERCHUNK_EXPECT_IN_CHILD_PROCESS(ExpectChunksMatchLibrary(*path, GetParam() ? 5 : 2));
}

TEST_P(CacheImageFixtureTest, ImageIsWhereLibhdf5FindsItAndHoldsTheMetadata) {
  auto path = WriteCacheImageFixture(dir_.path(), GetParam());
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  const std::vector<std::byte> bytes = ReadBytes(*path);
  auto image = ReadStoredImage(bytes);
  ASSERT_TRUE(image.ok()) << image.status().ToString();
  KERCHUNK_EXPECT_IN_CHILD_PROCESS({
    auto library = LibraryImageLocation(*path);
    ASSERT_TRUE(library.ok()) << library.status().ToString();
    EXPECT_EQ(image->where.address, library->address);
    EXPECT_EQ(image->where.length, library->length);
  });

  auto sb = hdf5::ReadSuperblock(bytes);
  ASSERT_TRUE(sb.ok());
  EXPECT_EQ(sb->base_address, GetParam() ? 0u : 512u);
  // libhdf5 leaves the homes of the entries it wrote into the image unwritten: reading the
  // stored bytes there would find nothing. The overlay puts every entry at its home.
  auto file = hdf5::File::Open(bytes);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_TRUE(file->has_metadata_cache_image());
  ASSERT_EQ(file->bytes().size(), bytes.size());
  size_t unwritten = 0;
  bool root_found = false;
  for (const auto& entry : image->entries) {
    const uint64_t offset = entry.address + sb->base_address;
    const auto stored = std::span(bytes).subspan(offset, entry.image.size());
    const auto served = file->bytes().subspan(offset, entry.image.size());
    EXPECT_TRUE(std::equal(served.begin(), served.end(), entry.image.begin()));
    if (!std::equal(stored.begin(), stored.end(), entry.image.begin())) ++unwritten;
    if (entry.address == sb->root_object_header_address) root_found = true;
  }
  EXPECT_TRUE(root_found) << "the root group's object header is not in the image";
  EXPECT_GT(unwritten, image->entries.size() / 2) << "of " << image->entries.size();
  // Outside the entries the overlay is the file.
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.begin() + 48, file->bytes().begin()));
}

std::string FormatName(const ::testing::TestParamInfo<bool>& param) {
  return param.param ? "Latest" : "V1WithUserBlock";
}

INSTANTIATE_TEST_SUITE_P(Formats, CacheImageFixtureTest, ::testing::Bool(), FormatName);

// Corruptions of a small file (one extensible array) whose image holds several entries.
class CacheImageCorruptionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto path = WriteSmallIndexFixture(dir_.path(), "cache_image");
    ASSERT_TRUE(path.ok()) << path.status().ToString();
    bytes_ = ReadBytes(*path);
    auto image = ReadStoredImage(bytes_);
    ASSERT_TRUE(image.ok()) << image.status().ToString();
    ASSERT_GE(image->entries.size(), 3u);
    where_ = image->where;
    entries_ = image->entries;
  }

  // Writes `value` little-endian over `width` bytes at `offset` of a copy and re-seals the
  // block's checksum, so that the changed field is what the reader meets.
  std::vector<std::byte> WithField(uint64_t offset, uint64_t value, unsigned width) const {
    std::vector<std::byte> b = bytes_;
    for (unsigned i = 0; i < width; ++i) b[offset + i] = std::byte((value >> (8 * i)) & 0xff);
    const uint64_t sum_at = where_.address + where_.length - 4;
    const uint32_t sum =
        hdf5::JenkinsLookup3(std::span(b).subspan(where_.address, sum_at - where_.address));
    for (unsigned i = 0; i < 4; ++i) b[sum_at + i] = std::byte((sum >> (8 * i)) & 0xff);
    return b;
  }

  static Status Open(const std::vector<std::byte>& b) { return hdf5::File::Open(b).status(); }

  void ExpectRefused(const std::vector<std::byte>& b, StatusCode code, std::string_view text) {
    const Status s = Open(b);
    EXPECT_EQ(s.code(), code) << s.ToString();
    EXPECT_THAT(s.message(), HasSubstr(std::string(text)));
    EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
  }

  TempDir dir_;
  std::vector<std::byte> bytes_;
  hdf5::CacheImageLocation where_;
  std::vector<hdf5::CacheImageEntry> entries_;
};

TEST_F(CacheImageCorruptionTest, IntactFileOpensWithTheOverlay) {
  auto file = hdf5::File::Open(bytes_);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_TRUE(file->has_metadata_cache_image());
  // The field writer itself changes nothing when it writes what is there.
  EXPECT_TRUE(Open(WithField(where_.address + 4, 0, 1)).ok());
}

TEST_F(CacheImageCorruptionTest, TruncatedBlockIsRefused) {
  const std::string at = "metadata cache image block at address " + std::to_string(where_.address);
  for (uint64_t keep :
       {where_.address + 3, where_.address + 40, where_.address + where_.length - 1}) {
    SCOPED_TRACE(keep);
    std::vector<std::byte> cut(bytes_.begin(), bytes_.begin() + keep);
    ExpectRefused(cut, StatusCode::kDataLoss, at);
    ExpectRefused(cut, StatusCode::kDataLoss, "past the end of the file");
  }
}

TEST_F(CacheImageCorruptionTest, EveryFlippedByteFailsTheChecksum) {
  for (uint64_t i = where_.address; i < where_.address + where_.length; ++i) {
    std::vector<std::byte> b = bytes_;
    b[i] ^= std::byte{0x41};
    const Status s = Open(b);
    ASSERT_EQ(s.code(), StatusCode::kDataLoss) << "byte " << i << ": " << s.ToString();
    ASSERT_THAT(s.message(), HasSubstr("checksum mismatch")) << "byte " << i;
  }
}

TEST_F(CacheImageCorruptionTest, BlockHeaderFieldsAreChecked) {
  const uint64_t b = where_.address;
  ExpectRefused(WithField(b, 0x5844434d, 4), StatusCode::kDataLoss, "signature");  // "MCDX"
  ExpectRefused(WithField(b + 4, 1, 1), StatusCode::kUnsupported, "expected version 0, got 1");
  ExpectRefused(WithField(b + 5, 1, 1), StatusCode::kUnsupported, "resize status");
  ExpectRefused(WithField(b + 6, where_.length + 8, 8), StatusCode::kDataLoss,
                "data length: expected the message's");
  ExpectRefused(WithField(b + 14, 0, 4), StatusCode::kDataLoss, "entry count");
  ExpectRefused(WithField(b + 14, entries_.size() + 1, 4), StatusCode::kDataLoss,
                "metadata cache image block");
  ExpectRefused(WithField(b + 14, entries_.size() - 1, 4), StatusCode::kDataLoss,
                "metadata cache image block");
  ExpectRefused(WithField(b + 14, 0xffffffff, 4), StatusCode::kDataLoss,
                "metadata cache image block");
}

TEST_F(CacheImageCorruptionTest, EntryAddressesAndSizesAreChecked) {
  // Entry 0's header follows the block header (18 bytes with 8-byte lengths); without flush
  // dependency parents its image follows its 30-byte header.
  const uint64_t e0 = where_.address + 18;
  ASSERT_EQ(static_cast<uint64_t>(entries_[0].image.data() - bytes_.data()), e0 + 30);
  const uint64_t address = e0 + 14, size = e0 + 22;
  ExpectRefused(WithField(address, bytes_.size() - 4, 8), StatusCode::kDataLoss,
                "reach past the end of the file");
  ExpectRefused(WithField(address, ~uint64_t{0}, 8), StatusCode::kDataLoss, "undefined");
  ExpectRefused(WithField(address, entries_[1].address + 1, 8), StatusCode::kDataLoss, "overlaps");
  ExpectRefused(WithField(address, where_.address, 8), StatusCode::kDataLoss, "overlaps");
  ExpectRefused(WithField(address, where_.address, 8), StatusCode::kDataLoss,
                "metadata cache image block (");
  ExpectRefused(WithField(size, 0, 8), StatusCode::kDataLoss, "size 0");
  ExpectRefused(WithField(size, where_.length, 8), StatusCode::kDataLoss,
                "metadata cache image block");
  ExpectRefused(WithField(e0 + 6, 0xffff, 2), StatusCode::kDataLoss, "dirty flush dependency");
}

TEST_F(CacheImageCorruptionTest, MessageFieldsAreChecked) {
  auto sb = hdf5::ReadSuperblock(bytes_);
  ASSERT_TRUE(sb.ok());
  const hdf5::File plain(bytes_, *sb);
  auto message =
      hdf5::FindHeaderMessage(plain, sb->extension_address, hdf5::kMetadataCacheImageMessage);
  ASSERT_TRUE(message.ok()) << message.status().ToString();
  auto changed = [&](uint64_t at, uint64_t value, unsigned width) {
    std::vector<std::byte> b = bytes_;
    for (unsigned i = 0; i < width; ++i) b[at + i] = std::byte((value >> (8 * i)) & 0xff);
    return b;
  };
  const uint64_t m = message->file_offset;
  ExpectRefused(changed(m, 2, 1), StatusCode::kUnsupported, "metadata cache image message");
  ExpectRefused(changed(m + 1, bytes_.size(), 8), StatusCode::kDataLoss, "past the end");
  ExpectRefused(changed(m + 1, ~uint64_t{0}, 8), StatusCode::kDataLoss, "undefined");
  ExpectRefused(changed(m + 9, 10, 8), StatusCode::kDataLoss, "cannot hold the header");
}

// An entry damaged under a valid checksum (as a fuzzer makes them): the native error stands and
// libhdf5 is not tried, which would read the same entry unchecked and, 1.10.8 on this file,
// crash the process.
TEST_F(CacheImageCorruptionTest, DamagedEntryIsNotHandedToLibhdf5) {
  const auto header = entries_[0].image;
  ASSERT_EQ(std::string_view(reinterpret_cast<const char*>(header.data()), 4), "EAHD");
  // The extensible array's super block minimum data pointer count: 4 -> 36.
  const uint64_t field = static_cast<uint64_t>(header.data() - bytes_.data()) + 10;
  ASSERT_EQ(std::to_integer<int>(bytes_[field]), 4);
  const std::vector<std::byte> damaged = WithField(field, 36, 1);
  const std::string path = (dir_.path() / "damaged.h5").string();
  ASSERT_TRUE(WriteFileAtomically(
                  path, std::string(reinterpret_cast<const char*>(damaged.data()), damaged.size()))
                  .ok());
  auto scanned = ScanHdf5File(path, "damaged.h5", FileScanOptions{});
  ASSERT_FALSE(scanned.ok()) << "read with: " << scanned->hdf5_fallback;
  EXPECT_EQ(scanned.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(scanned.status().message(), HasSubstr("extensible array"));
  EXPECT_EQ(scanned.status().message().find('\n'), std::string::npos);
}

TEST_F(CacheImageCorruptionTest, ScanErrorIsOneLineNamingTheFile) {
  std::vector<std::byte> b = bytes_;
  b[where_.address + where_.length / 2] ^= std::byte{1};
  auto scanned = ScanHdf5Image(b, "broken.h5", "broken.h5", FileScanOptions{});
  ASSERT_FALSE(scanned.ok());
  EXPECT_EQ(scanned.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(scanned.status().message(), StartsWith("broken.h5: metadata cache image block"));
  EXPECT_EQ(scanned.status().message().find('\n'), std::string::npos);
  // Intact, the same bytes translate natively.
  auto intact = ScanHdf5Image(bytes_, "small.h5", "small.h5", FileScanOptions{});
  ASSERT_TRUE(intact.ok()) << intact.status().ToString();
  EXPECT_EQ(intact->refs.ChunkCount(), 10u);
}

}  // namespace
}  // namespace kerchunk::testing
