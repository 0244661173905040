// The access-log accounting of `kerchunk bench --server-log`: nginx's combined format.
#include "bench/server_log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kerchunk::bench::internal {
namespace {

TEST(ServerLogTest, CountsCombinedFormatLinesAndTheirBodyBytes) {
  const std::string text =
      "127.0.0.1 - - [26/Nov/2026:19:34:08 +0000] \"GET /a.nc HTTP/1.1\" 206 4096 \"-\" "
      "\"curl/7.88.1\"\n"
      "127.0.0.1 - - [26/Nov/2026:19:34:08 +0000] \"HEAD /a.nc HTTP/1.1\" 200 0 \"-\" \"x\"\n"
      "127.0.0.1 - - [26/Nov/2026:19:34:09 +0000] \"GET /b\\x22.nc HTTP/1.1\" 404 153 \"-\" "
      "\"python-requests\"\n"
      "127.0.0.1 - - [26/Nov/2026:19:34:09 +0000] \"-\" 400 - \"-\" \"-\"\n"
      "127.0.0.1 - - [26/Nov/2026:19:34:10 +0000] \"GET /c.nc HTTP/1.1\" 206 99";  // unfinished
  Result<LogCounts> counts = CountLogLines(text, "access.log");
  ASSERT_TRUE(counts.ok()) << counts.status().message();
  EXPECT_EQ(counts->requests, 4u);
  EXPECT_EQ(counts->bytes, 4096u + 153u);
}

TEST(ServerLogTest, AnotherFormatIsNamedWithItsLine) {
  Result<LogCounts> counts =
      CountLogLines("GET /a.nc HTTP/1.1 bytes=0-9 206\n", "/var/log/nginx/access.log");
  ASSERT_FALSE(counts.ok());
  EXPECT_EQ(counts.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(counts.status().message(),
              ::testing::HasSubstr("--server-log /var/log/nginx/access.log: line 1: expected "
                                   "nginx's combined format"));
}

}  // namespace
}  // namespace kerchunk::bench::internal
