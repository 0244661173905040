// Truncated and corrupted copies of the generated files: every input gives an error or a
// result, never a crash, a hang or memory out of proportion to the input; a copy cut before the
// end of the data is always an error, and one cut only in trailing padding translates as before.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "kerchunk/netcdf3/header.h"
#include "kerchunk/netcdf3/translator.h"
#include "kerchunk/util/file_io.h"
#include "support/netcdf3_fixtures.h"
#include "support/refs_testing.h"
#include "support/test_env.h"

namespace kerchunk {
namespace {

using ::kerchunk::testing::Netcdf3Fixture;

constexpr std::string_view kName = "corrupt.nc";

std::span<const std::byte> Span(const std::string& s, size_t n) {
  return {reinterpret_cast<const std::byte*>(s.data()), n};
}

Result<FileScanResult> Translate(const std::string& bytes, size_t n) {
  FileScanOptions options;
  options.inline_threshold = 8;
  return netcdf3::TranslateNetcdf3(Span(bytes, n), kName, kName, options);
}

// The invariants of any outcome: errors are input errors naming the file; results reference
// only bytes of the input and hold memory proportional to it.
::testing::AssertionResult Sane(const Result<FileScanResult>& r, size_t size) {
  if (!r.ok()) {
    StatusCode c = r.status().code();
    if (c != StatusCode::kDataLoss && c != StatusCode::kInvalidArgument &&
        c != StatusCode::kUnsupported) {
      return ::testing::AssertionFailure() << "unexpected error " << r.status().ToString();
    }
    if (!r.status().message().starts_with(std::string(kName) + ": ")) {
      return ::testing::AssertionFailure()
             << "error does not name the file: " << r.status().message();
    }
    return ::testing::AssertionSuccess();
  }
  for (const auto& array : r->refs.arrays) {
    for (size_t i = 0; i < array.size(); ++i) {
      ChunkRef ref = array.Get(i);
      if (ref.kind == RefKind::kRange && (ref.offset > size || ref.length > size - ref.offset)) {
        return ::testing::AssertionFailure() << array.path() << ": range past the input";
      }
    }
  }
  if (r->refs.MemoryUsage() > 64 * size + (1 << 20)) {
    return ::testing::AssertionFailure()
           << "result holds " << r->refs.MemoryUsage() << " bytes for a " << size << "-byte input";
  }
  return ::testing::AssertionSuccess();
}

class Netcdf3BadInputTest : public ::testing::TestWithParam<Netcdf3Fixture> {
 protected:
  void SetUp() override {
    auto path = testing::WriteNetcdf3Fixture(GetParam(), dir_.path());
    ASSERT_TRUE(path.ok()) << path.status().message();
    auto bytes = ReadFileToString(*path);
    ASSERT_TRUE(bytes.ok());
    bytes_ = std::move(*bytes);
    auto full = Translate(bytes_, bytes_.size());
    ASSERT_TRUE(full.ok()) << full.status().message();
    full_ = std::move(full->refs);
    auto header = netcdf3::ParseHeader(Span(bytes_, bytes_.size()));
    ASSERT_TRUE(header.ok());
    header_size_ = header->header_size;
    // The end of the last referenced byte (inline chunks included).
    auto unlined = netcdf3::Translate(*header, Span(bytes_, bytes_.size()), kName, {});
    ASSERT_TRUE(unlined.ok());
    data_end_ = header_size_;
    for (const auto& array : unlined->arrays) {
      for (size_t i = 0; i < array.size(); ++i) {
        data_end_ = std::max(data_end_, array.offsets()[i] + array.lengths()[i]);
      }
    }
  }

  testing::TempDir dir_;
  std::string bytes_;
  ReferenceSet full_;
  uint64_t header_size_ = 0;
  uint64_t data_end_ = 0;
};

TEST_P(Netcdf3BadInputTest, TruncatedCopiesFailUnlessOnlyPaddingIsCut) {
  std::set<size_t> lengths;
  for (size_t n = 0; n <= std::min<size_t>(header_size_ + 16, bytes_.size()); ++n)
    lengths.insert(n);
  for (size_t n = header_size_; n < bytes_.size(); n += 1 + bytes_.size() / 97) lengths.insert(n);
  for (size_t n = data_end_ - std::min<uint64_t>(data_end_, 5); n < bytes_.size(); ++n) {
    lengths.insert(n);
  }
  for (size_t n : lengths) {
    SCOPED_TRACE(n);
    auto r = Translate(bytes_, n);
    ASSERT_TRUE(Sane(r, n));
    if (n < data_end_) {
      EXPECT_FALSE(r.ok()) << "cut at " << n << " of " << data_end_ << " data bytes";
    } else {
      ASSERT_TRUE(r.ok()) << r.status().message();
      EXPECT_TRUE(testing::SameReferences(r->refs, full_));
    }
  }
}

TEST_P(Netcdf3BadInputTest, CorruptedCopiesNeverCrash) {
  std::mt19937_64 rng(20240601 + GetParam().name.size());
  const uint32_t kWords[] = {0, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x00010000u, 1, 12};
  size_t ok = 0;
  for (int iteration = 0; iteration < 400; ++iteration) {
    std::string copy = bytes_;
    size_t header = std::min<size_t>(header_size_, copy.size());
    switch (iteration % 3) {
      case 0:  // a bit of the header
        copy[rng() % header] ^= static_cast<char>(1u << (rng() % 8));
        break;
      case 1: {  // a 4-byte field of the header (counts, lengths, types, offsets)
        size_t at = (rng() % (header / 4)) * 4;
        uint32_t w = kWords[rng() % std::size(kWords)];
        for (int k = 0; k < 4; ++k) copy[at + k] = static_cast<char>(w >> (24 - 8 * k));
        break;
      }
      default:  // any byte, then a random cut
        copy[rng() % copy.size()] = static_cast<char>(rng());
        copy.resize(copy.size() - rng() % std::max<size_t>(1, copy.size() / 8));
        break;
    }
    auto r = Translate(copy, copy.size());
    ASSERT_TRUE(Sane(r, copy.size())) << "iteration " << iteration;
    ok += r.ok();
  }
  std::cout << GetParam().name << ": " << ok << " of 400 corrupted copies still translate\n";
}

INSTANTIATE_TEST_SUITE_P(Generated, Netcdf3BadInputTest,
                         ::testing::ValuesIn(testing::Netcdf3Fixtures()),
                         [](const auto& p) { return p.param.name; });

}  // namespace
}  // namespace kerchunk
