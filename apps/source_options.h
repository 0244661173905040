// The options of commands that read files where they live (scan, verify, bench): request
// headers, the S3 endpoint, region, addressing and credentials, and the transfer timeout. One
// definition, so the commands spell and document them alike.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "kerchunk/io/byte_source.h"
#include "kerchunk/util/status.h"

namespace kerchunk::cli {

/// What the options hold before FinishSourceOptions turns them into io::SourceOptions.
struct SourceOptionsText {
  std::string s3_region;
  bool s3_anonymous = false;
};

/// Adds --header, --s3-endpoint, --s3-region, --s3-path-style, --io-timeout and --s3-anonymous,
/// writing into `source` and `text`.
void AddSourceOptions(CLI::App& app, io::SourceOptions& source, SourceOptionsText& text);

/// Completes `source`: the region (--s3-region, else AWS_REGION, AWS_DEFAULT_REGION, else
/// us-east-1) and, unless --s3-anonymous, credentials as the AWS tools find them. A broken
/// credentials file is an error only when `reads_s3` (the inputs name s3:// files); otherwise
/// requests go unsigned.
Status FinishSourceOptions(const SourceOptionsText& text, bool reads_s3, io::SourceOptions& source);

}  // namespace kerchunk::cli
