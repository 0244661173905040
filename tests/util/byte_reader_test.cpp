#include "kerchunk/util/byte_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace kerchunk {
namespace {

using ::testing::HasSubstr;

std::vector<std::byte> Bytes(std::initializer_list<int> v) {
  std::vector<std::byte> out;
  for (int x : v) out.push_back(static_cast<std::byte>(x));
  return out;
}

TEST(ByteReaderTest, ReadsLittleEndian) {
  auto b = Bytes({0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b});
  ByteReader r(b, 100);
  EXPECT_EQ(*r.U8(), 0x01);
  EXPECT_EQ(*r.U16(), 0x0302);
  EXPECT_EQ(*r.U32(), 0x07060504u);
  EXPECT_EQ(r.address(), 107u);
  EXPECT_EQ(*r.UVar(3), 0x0a0908u);
  EXPECT_EQ(r.remaining(), 1u);
}

TEST(ByteReaderTest, ReadsBigEndian) {
  auto b = Bytes({0x00, 0x00, 0x01, 0x02, 0, 0, 0, 0, 0, 0, 0x01, 0x00});
  ByteReader r(b);
  EXPECT_EQ(*r.U32BE(), 0x0102u);
  EXPECT_EQ(*r.U64BE(), 0x0100u);
}

TEST(ByteReaderTest, TruncatedReadNamesAddressAndField) {
  auto b = Bytes({1, 2, 3});
  ByteReader r(b, 4096, "v1 B-tree node");
  ASSERT_TRUE(r.Skip(1).ok());
  auto v = r.U32("child address");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(v.status().message(), HasSubstr("v1 B-tree node at address 4097"));
  EXPECT_THAT(v.status().message(), HasSubstr("child address"));
  EXPECT_EQ(r.position(), 1u) << "a failed read consumes nothing";
}

TEST(ByteReaderTest, SignatureMismatchIsDataLoss) {
  auto b = Bytes({'T', 'R', 'E', 'X'});
  ByteReader r(b, 0, "node");
  Status s = r.ExpectSignature("TREE");
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("expected signature \"TREE\", got \"TREX\""));
}

TEST(ByteReaderTest, SubReaderIsBoundedAndChecksEnd) {
  auto b = Bytes({1, 2, 3, 4, 5});
  ByteReader r(b, 10);
  auto sub = r.Sub(3, "message");
  ASSERT_TRUE(sub.ok());
  EXPECT_EQ(sub->address(), 10u);
  EXPECT_EQ(*sub->U16(), 0x0201);
  EXPECT_FALSE(sub->ExpectEnd().ok());
  EXPECT_FALSE(sub->U16().ok()) << "cannot read past the sub-record";
  EXPECT_EQ(*sub->U8(), 3);
  EXPECT_TRUE(sub->ExpectEnd().ok());
  EXPECT_EQ(*r.U8(), 4) << "the parent moved past the sub-record";
  EXPECT_FALSE(r.Sub(5, "too long").ok());
}

TEST(ByteReaderTest, RejectsBadWidthAndSeek) {
  auto b = Bytes({1, 2});
  ByteReader r(b);
  EXPECT_FALSE(r.UVar(0).ok());
  EXPECT_FALSE(r.UVar(9).ok());
  EXPECT_FALSE(r.Seek(3).ok());
  EXPECT_TRUE(r.Seek(2).ok());
  EXPECT_FALSE(r.Skip(1).ok());
}

// Property: random reads on random buffers never read out of bounds and fail exactly when fewer
// bytes remain than requested.
TEST(ByteReaderTest, RandomReadsStayInBounds) {
  std::mt19937_64 rng(42);
  for (int iter = 0; iter < 2000; ++iter) {
    std::vector<std::byte> buf(rng() % 40);
    for (auto& x : buf) x = static_cast<std::byte>(rng());
    ByteReader r(buf);
    for (int k = 0; k < 20; ++k) {
      unsigned width = 1 + rng() % 8;
      uint64_t before = r.remaining();
      auto v = r.UVar(width);
      EXPECT_EQ(v.ok(), before >= width);
      EXPECT_EQ(r.remaining(), v.ok() ? before - width : before);
    }
  }
}

}  // namespace
}  // namespace kerchunk
