// The codecs of the packed format, each encoder against its decoder: integer columns, the Rice
// stream, stream orders and presence runs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "kerchunk/util/base64.h"
#include "pack/base64_decoder.h"
#include "pack/column_codec.h"
#include "pack/presence.h"
#include "pack/rice_codec.h"
#include "pack/stream_order.h"
#include "pack/value_counter.h"

namespace kerchunk::pack::internal {
namespace {

using ::testing::HasSubstr;

std::vector<uint64_t> Extremes() {
  return {0, 1, 127, 128, 16383, 16384, UINT32_MAX, uint64_t{1} << 63, UINT64_MAX - 1, UINT64_MAX};
}

std::span<const std::byte> Bytes(const std::string& s) {
  return std::as_bytes(std::span(s.data(), s.size()));
}

TEST(ZigZagTest, RoundTripsExtremes) {
  for (uint64_t v : Extremes()) EXPECT_EQ(UnZigZag(ZigZag(v)), v);
  EXPECT_EQ(ZigZag(0), 0u);
  EXPECT_EQ(ZigZag(static_cast<uint64_t>(-1)), 1u);
  EXPECT_EQ(ZigZag(1), 2u);
}

class ColumnCodecTest : public ::testing::TestWithParam<ColumnType> {};

TEST_P(ColumnCodecTest, RoundTripsRandomAndExtremeValues) {
  std::mt19937_64 rng(7);
  const IntColumnCodec codec("test", GetParam());
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<uint64_t> values = trial == 0 ? Extremes() : std::vector<uint64_t>();
    // Every tenth column is long: the encoder base64-encodes its bytes in pieces of ~4 KiB.
    const int n = static_cast<int>(trial % 10 == 9 ? 1000 + rng() % 3000 : rng() % 50);
    for (int i = 0; i < n; ++i) {
      values.push_back(rng() >> (rng() % 64));
    }
    if (GetParam() == ColumnType::kNondecreasing) std::sort(values.begin(), values.end());
    std::string json;
    codec.Encode(values, /*readable=*/false, json);
    std::string prefix = "{\"" + std::string(codec.encoding()) + "\":\"";
    ASSERT_TRUE(json.starts_with(prefix)) << json;
    auto bytes = Base64Decode(json.substr(prefix.size(), json.size() - prefix.size() - 2));
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ(bytes->size(), codec.EncodedBytes(values));
    auto decoded = codec.DecodeBinary(codec.encoding(), Bytes(*bytes));
    ASSERT_TRUE(decoded.ok()) << decoded.status().message();
    EXPECT_EQ(*decoded, values);
  }
}

INSTANTIATE_TEST_SUITE_P(Types, ColumnCodecTest,
                         ::testing::Values(ColumnType::kUnsigned, ColumnType::kSigned,
                                           ColumnType::kNondecreasing, ColumnType::kDrifting));

TEST(ColumnCodecTest, ReadableFormIsAPlainArray) {
  std::string out;
  IntColumnCodec("gaps.value", ColumnType::kSigned)
      .Encode(std::vector<uint64_t>{5, static_cast<uint64_t>(-3)}, true, out);
  EXPECT_EQ(out, "[5,-3]");
  out.clear();
  IntColumnCodec("gaps.index", ColumnType::kNondecreasing)
      .Encode(std::vector<uint64_t>{1, 4, 9}, true, out);
  EXPECT_EQ(out, "[1,4,9]");
}

TEST(ColumnCodecTest, RejectsAnotherEncoding) {
  auto r = IntColumnCodec("presence", ColumnType::kUnsigned).DecodeBinary("delta", {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(r.status().message(), HasSubstr("column \"presence\": expected encoding \"varint\""));
}

TEST(ColumnCodecTest, RejectsTruncatedAndOverlongVarints) {
  const IntColumnCodec codec("ends", ColumnType::kUnsigned);
  auto truncated = codec.DecodeBinary("varint", Bytes(std::string("\x81\x80", 2)));
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(truncated.status().message(), HasSubstr("truncated varint"));
  auto overlong = codec.DecodeBinary("varint", Bytes(std::string(10, '\xFF') + "\x01"));
  ASSERT_FALSE(overlong.ok());
  EXPECT_THAT(overlong.status().message(), HasSubstr("does not fit in 64 bits"));
}

TEST(ColumnCodecTest, RejectsANondecreasingColumnThatOverflows) {
  const IntColumnCodec codec("gaps.index", ColumnType::kNondecreasing);
  std::string bytes;
  AppendVarint(bytes, UINT64_MAX);
  AppendVarint(bytes, 1);
  auto r = codec.DecodeBinary("delta", Bytes(bytes));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("overflows"));
  EXPECT_THAT(codec.CheckPlain(std::vector<uint64_t>{3, 2}).message(),
              HasSubstr("value 1 (2) is less than the one before (3)"));
}

TEST(Base64DecoderTest, DecodesWhatUtilEncodes) {
  std::mt19937_64 rng(13);
  for (size_t n = 0; n < 200; ++n) {
    std::string bytes(n, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    std::string encoded = Base64Encode(bytes), decoded;
    ASSERT_TRUE(DecodeBase64(encoded, decoded, 32).ok()) << n;
    EXPECT_EQ(decoded, bytes);
    EXPECT_GE(decoded.capacity(), n + 32);
    std::string unpadded = encoded.substr(0, encoded.find('='));
    ASSERT_TRUE(DecodeBase64(unpadded, decoded).ok());
    EXPECT_EQ(decoded, bytes);
  }
  std::string out;
  EXPECT_THAT(DecodeBase64("AAA!AAAA", out).message(),
              HasSubstr("invalid base64 character at position 3"));
  EXPECT_THAT(DecodeBase64("AAAAA", out).message(), HasSubstr("invalid base64"));
  EXPECT_FALSE(DecodeBase64("A=AA", out).ok());
}

TEST(RiceCodecTest, RoundTripsEveryParameterAndEscapes) {
  std::mt19937_64 rng(3);
  for (unsigned k = 0; k <= RiceCodec::kMaxParameter; ++k) {
    std::vector<uint64_t> values = Extremes();
    for (int i = 0; i < 300; ++i) values.push_back(rng() >> (rng() % 64));
    BitWriter writer;
    uint64_t expected_bits = 0;
    for (uint64_t v : values) {
      RiceCodec::Put(writer, v, k);
      expected_bits += RiceCodec::Bits(v, k);
    }
    ASSERT_EQ(writer.bit_count(), expected_bits) << "k=" << k;
    std::string bytes = writer.Finish();
    ASSERT_EQ(bytes.size(), (expected_bits + 7) / 8);
    bytes.append(BitReader::kPadding, '\0');
    BitReader reader(reinterpret_cast<const uint8_t*>(bytes.data()), 0);
    for (uint64_t v : values) ASSERT_EQ(RiceCodec::Get(reader, k), v) << "k=" << k;
    EXPECT_EQ(reader.position(), expected_bits);
  }
}

TEST(RiceCodecTest, BestParameterIsNoWorseThanItsNeighboursAndZeroBlocksAreFree) {
  uint64_t bits = 1;
  std::vector<uint64_t> zeros(100, 0);
  EXPECT_EQ(RiceCodec::BestParameter(zeros, bits), RiceCodec::kZeroBlock);
  EXPECT_EQ(bits, 0u);
  std::mt19937_64 rng(5);
  std::vector<uint64_t> values;
  for (int i = 0; i < 256; ++i) values.push_back(rng() % 3000);
  uint8_t k = RiceCodec::BestParameter(values, bits);
  for (unsigned other = 0; other <= RiceCodec::kMaxParameter; ++other) {
    uint64_t total = 0;
    for (uint64_t v : values) total += RiceCodec::Bits(v, other);
    if (other == k) {
      EXPECT_EQ(total, bits);
    }
    EXPECT_GE(total, bits) << "k=" << other;
  }
  EXPECT_NEAR(static_cast<double>(RiceCodec::EstimateBits(values)), static_cast<double>(bits),
              0.1 * static_cast<double>(bits));
}

TEST(StreamOrderTest, SlotsAreABijectionAndCursorsAgreeWithSlot) {
  for (uint64_t vars : {1, 2, 3, 5}) {
    for (uint64_t chunks : {1, 2, 7, 12}) {
      for (uint64_t interleave : {1, 2, 3, 5, 12, 100}) {
        auto order = StreamOrder::Make(vars, chunks, interleave);
        ASSERT_TRUE(order);
        std::set<uint64_t> seen;
        std::vector<uint64_t> last_chunk(vars, 0);
        std::vector<bool> any(vars, false);
        auto cursor = order->At(0);
        for (uint64_t slot = 0; slot < order->slots(); ++slot) {
          if (slot > 0) cursor.Next();
          ASSERT_EQ(cursor.slot(), slot);
          EXPECT_EQ(order->Slot(cursor.var(), cursor.chunk()), slot);
          auto direct = order->At(slot);
          EXPECT_EQ(direct.var(), cursor.var());
          EXPECT_EQ(direct.chunk(), cursor.chunk());
          // each variable's chunks in increasing order
          if (any[cursor.var()]) {
            EXPECT_GT(cursor.chunk(), last_chunk[cursor.var()]);
          }
          any[cursor.var()] = true;
          last_chunk[cursor.var()] = cursor.chunk();
          seen.insert(cursor.var() * chunks + cursor.chunk());
        }
        EXPECT_EQ(seen.size(), vars * chunks);
      }
    }
  }
}

TEST(StreamOrderTest, ChunkMajorAndVariableMajor) {
  auto chunk_major = StreamOrder::Make(3, 4, 1);
  EXPECT_EQ(chunk_major->Slot(1, 2), 7u);  // chunk 2: slots 6, 7, 8
  auto variable_major = StreamOrder::Make(3, 4, 4);
  EXPECT_EQ(variable_major->Slot(1, 2), 6u);  // variable 1: slots 4..7
  EXPECT_FALSE(StreamOrder::Make(3, UINT64_MAX, 1));
  EXPECT_FALSE(StreamOrder::Make(3, 4, 0));
}

TEST(PresenceTest, RunsLocateEverySlot) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 100; ++trial) {
    const uint64_t total = 1 + rng() % 200;
    std::vector<uint64_t> slots;
    for (uint64_t s = 0; s < total; ++s) {
      if (rng() % 4 != 0) slots.push_back(s);
    }
    auto runs = Presence::RunsFromSlots(slots);
    auto presence = Presence::FromRuns(runs, total);
    ASSERT_TRUE(presence.ok()) << presence.status().message();
    ASSERT_EQ(presence->present(), slots.size());
    size_t next = 0;
    for (uint64_t s = 0; s < total; ++s) {
      bool present = next < slots.size() && slots[next] == s;
      auto index = presence->IndexOf(s);
      ASSERT_EQ(index.has_value(), present) << s;
      if (present) {
        EXPECT_EQ(*index, next);
        size_t run = presence->RunOfIndex(next);
        EXPECT_LE(presence->run_start(run), s);
        EXPECT_LT(s, presence->run_start(run) + presence->run_length(run));
        ++next;
      }
    }
  }
}

TEST(PresenceTest, RejectsMalformedRuns) {
  EXPECT_THAT(Presence::FromRuns(std::vector<uint64_t>{0, 3, 1}, 10).status().message(),
              HasSubstr("pairs"));
  EXPECT_THAT(Presence::FromRuns(std::vector<uint64_t>{0, 3, 0, 2}, 10).status().message(),
              HasSubstr("run 2 is empty"));
  EXPECT_THAT(Presence::FromRuns(std::vector<uint64_t>{2, 0}, 10).status().message(),
              HasSubstr("run 1 is empty"));
  auto huge = Presence::FromRuns(std::vector<uint64_t>{0, 5, UINT64_MAX, 1}, 10);
  EXPECT_EQ(huge.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(huge.status().message(), HasSubstr("more than the 10 slots"));
  EXPECT_TRUE(Presence::FromRuns(std::vector<uint64_t>{}, 0).ok());
}

TEST(ValueCounterTest, FindsTheSmallestMostCommonValueAsSortingWould) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 200; ++round) {
    ValueCounter counter;
    std::map<uint64_t, uint64_t> counts;
    const uint64_t n = rng() % 5000, range = 1 + rng() % 3000;
    const uint64_t base = round % 3 == 0 ? UINT64_MAX - range : rng() % 100000;
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t v = base + rng() % range;
      counter.Add(v);
      ++counts[v];
    }
    uint64_t best = 0, best_count = 0;
    for (auto [v, c] : counts) {
      if (c > best_count) best = v, best_count = c;  // map order: the smallest wins ties
    }
    ASSERT_FALSE(counter.full());
    EXPECT_EQ(counter.Most().value, best);
    EXPECT_EQ(counter.Most().others, n - best_count);
    EXPECT_EQ(counter.distinct(), counts.size());
  }
  EXPECT_EQ(ValueCounter().Most().value, 0u);
  EXPECT_EQ(ValueCounter().Most().others, 0u);
}

TEST(ValueCounterTest, GivesUpPastItsLimitOfDistinctValues) {
  ValueCounter counter(/*max_distinct=*/1000);
  for (uint64_t v = 0; v < 1000; ++v) counter.Add(v);
  EXPECT_FALSE(counter.full());
  counter.Add(5);
  EXPECT_FALSE(counter.full());
  counter.Add(1000);
  EXPECT_TRUE(counter.full());
}

}  // namespace
}  // namespace kerchunk::pack::internal
