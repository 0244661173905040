#include "kerchunk/io/file_image.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <random>

#include "support/test_env.h"

namespace kerchunk::io {
namespace {

// A source that counts its reads and can fail from the n-th on.
class CountingSource : public ByteSource {
 public:
  CountingSource(std::unique_ptr<ByteSource> inner, int fail_from = -1)
      : inner_(std::move(inner)), fail_from_(fail_from) {}
  const std::string& name() const override { return inner_->name(); }
  Result<uint64_t> Size() override { return inner_->Size(); }
  Result<std::string> Read(uint64_t offset, uint64_t length) override {
    if (fail_from_ >= 0 && reads >= fail_from_) {
      ++reads;
      return IoError("{}: HTTP 503 (after 4 attempts)", name());
    }
    ++reads;
    bytes += length;
    return inner_->Read(offset, length);
  }
  SourceStats stats() const override { return {static_cast<uint64_t>(reads.load()), bytes, 0}; }

  std::atomic<int> reads{0};
  uint64_t bytes = 0;

 private:
  std::unique_ptr<ByteSource> inner_;
  int fail_from_;
};

class FileImageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::mt19937_64 rng(3);
    bytes_.resize((uint64_t{9} << 20) + 123);  // not a whole number of pages
    for (char& c : bytes_) c = static_cast<char>(rng());
    path_ = dir_ / "file.bin";
    std::ofstream(path_, std::ios::binary) << bytes_;
  }
  std::unique_ptr<FileImage> Open(CountingSource** counter, const FileImageOptions& o,
                                  int fail_from = -1) {
    auto source = std::make_unique<CountingSource>(*OpenByteSource(path_), fail_from);
    *counter = source.get();
    auto image = FileImage::Open(std::move(source), o);
    EXPECT_TRUE(image.ok()) << image.status().message();
    return image.ok() ? std::move(*image) : nullptr;
  }

  testing::TempDir dir_;
  std::string bytes_, path_;
};

TEST_F(FileImageTest, EveryByteIsTheFilesAndOnlyWhatIsReadIsFetched) {
  CountingSource* counter = nullptr;
  auto image = Open(&counter, {.head_bytes = 1 << 20, .block_bytes = 256 << 10});
  ASSERT_TRUE(image);
  ASSERT_EQ(image->size(), bytes_.size());
  if (!image->lazy()) GTEST_SKIP() << "userfaultfd is not available here: the whole file is read";
  const auto view = image->bytes();
  auto at = [&](uint64_t i) { return static_cast<char>(view[i]); };
  // The head, one byte far in, the very last byte.
  EXPECT_EQ(at(0), bytes_[0]);
  EXPECT_EQ(at(1000), bytes_[1000]);
  EXPECT_EQ(counter->reads, 1);  // the whole head in one request
  EXPECT_EQ(at(5'000'000), bytes_[5'000'000]);
  EXPECT_EQ(at(bytes_.size() - 1), bytes_.back());
  EXPECT_EQ(counter->reads, 3);
  EXPECT_LT(counter->bytes, uint64_t{2} << 20);
  // Then everything, in a random order: still the file, and each page fetched once.
  std::mt19937_64 rng(4);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t k = rng() % bytes_.size();
    ASSERT_EQ(at(k), bytes_[k]) << k;
  }
  EXPECT_EQ(std::memcmp(view.data(), bytes_.data(), bytes_.size()), 0);
  EXPECT_EQ(counter->bytes, bytes_.size());
  EXPECT_TRUE(image->status().ok());
}

TEST_F(FileImageTest, PrefetchedHeadIsTheOnlyRequestUntilReadsLeaveIt) {
  CountingSource* counter = nullptr;
  auto image = Open(&counter, {.head_bytes = 1 << 20, .prefetch_head = true});
  ASSERT_TRUE(image);
  EXPECT_EQ(counter->reads, 1);  // fetched while opening
  const auto view = image->bytes();
  EXPECT_EQ(std::memcmp(view.data(), bytes_.data(), 1 << 20), 0);
  EXPECT_EQ(counter->reads, image->lazy() ? 1 : 2);  // without userfaultfd: head + the rest
  EXPECT_EQ(static_cast<char>(view[5'000'000]), bytes_[5'000'000]);
  EXPECT_EQ(std::memcmp(view.data(), bytes_.data(), bytes_.size()), 0);
  EXPECT_TRUE(image->status().ok());
  // A head larger than the file is the whole file: nothing more is ever fetched.
  std::ofstream(dir_ / "small.bin", std::ios::binary) << bytes_.substr(0, 10'001);
  auto small_source = std::make_unique<CountingSource>(*OpenByteSource(dir_ / "small.bin"));
  CountingSource* small_counter = small_source.get();
  auto small = FileImage::Open(std::move(small_source), {.prefetch_head = true});
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(std::memcmp((*small)->bytes().data(), bytes_.data(), 10'001), 0);
  EXPECT_EQ(small_counter->reads, 1);
}

// Holds tells what reading would not fetch, and asking never fetches.
TEST_F(FileImageTest, HoldsNamesTheFetchedBytesWithoutFetching) {
  CountingSource* counter = nullptr;
  auto image =
      Open(&counter, {.head_bytes = 1 << 20, .block_bytes = 64 << 10, .prefetch_head = true});
  ASSERT_TRUE(image);
  if (!image->lazy()) GTEST_SKIP() << "userfaultfd is not available here: the whole file is read";
  EXPECT_TRUE(image->Holds(0, 1 << 20));
  EXPECT_TRUE(image->Holds(12'345, 100));
  EXPECT_FALSE(image->Holds((1 << 20) - 10, 20));  // runs past the head
  EXPECT_FALSE(image->Holds(5'000'000, 8));
  EXPECT_FALSE(image->Holds(bytes_.size() - 4, 8));  // past the end of the file
  EXPECT_FALSE(image->Holds(0, 0));
  EXPECT_EQ(counter->reads, 1);
  EXPECT_EQ(static_cast<char>(image->bytes()[5'000'000]), bytes_[5'000'000]);
  EXPECT_EQ(counter->reads, 2);
  EXPECT_TRUE(image->Holds(5'000'000, 8));
  EXPECT_FALSE(image->Holds(5'000'000, 1 << 20));  // beyond the one block fetched
  EXPECT_EQ(counter->reads, 2);
}

TEST_F(FileImageTest, WholeFileMode) {
  CountingSource* counter = nullptr;
  auto image = Open(&counter, {.whole_file = true});
  ASSERT_TRUE(image);
  EXPECT_FALSE(image->lazy());
  EXPECT_EQ(counter->reads, 1);
  EXPECT_EQ(std::memcmp(image->bytes().data(), bytes_.data(), bytes_.size()), 0);
}

TEST_F(FileImageTest, AFailedFetchIsReportedNotHung) {
  CountingSource* counter = nullptr;
  auto image = Open(&counter, {.head_bytes = 1 << 20}, /*fail_from=*/1);
  ASSERT_TRUE(image);
  if (!image->lazy()) GTEST_SKIP() << "userfaultfd is not available here";
  EXPECT_EQ(static_cast<char>(image->bytes()[10]), bytes_[10]);
  EXPECT_TRUE(image->status().ok());
  // The second fetch fails: the read returns (zeros) and status() names the error.
  EXPECT_EQ(static_cast<char>(image->bytes()[8'000'000]), '\0');
  EXPECT_EQ(image->status().code(), StatusCode::kIoError);
  EXPECT_THAT(image->status().message(), ::testing::HasSubstr("file.bin: HTTP 503"));
}

TEST_F(FileImageTest, EmptyFile) {
  std::ofstream(dir_ / "empty.bin").close();
  auto image = FileImage::Open(*OpenByteSource(dir_ / "empty.bin"));
  ASSERT_TRUE(image.ok());
  EXPECT_EQ((*image)->size(), 0u);
  EXPECT_TRUE((*image)->bytes().empty());
}

}  // namespace
}  // namespace kerchunk::io
