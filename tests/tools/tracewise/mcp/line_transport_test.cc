// Newline framing over a real pipe: split reads, CRLF, a last line without a newline, lines past
// the cap skipped without being buffered, and concurrent writers never interleaving.

#include "tools/tracewise/mcp/line_transport.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>
#include <vector>

namespace tw::mcp {
namespace {

class Pipe {
 public:
  Pipe() { EXPECT_EQ(pipe(fds_), 0); }
  ~Pipe() {
    CloseWrite();
    close(fds_[0]);
  }
  int read_fd() const { return fds_[0]; }
  int write_fd() const { return fds_[1]; }
  void Write(const std::string& s) { ASSERT_EQ(write(fds_[1], s.data(), s.size()), ssize_t(s.size())); }
  void CloseWrite() {
    if (fds_[1] >= 0) close(fds_[1]);
    fds_[1] = -1;
  }

 private:
  int fds_[2] = {-1, -1};
};

TEST(LineReaderTest, SplitsLines) {
  Pipe p;
  std::thread writer([&] {
    p.Write("{\"a\":1}\n{\"b\"");
    p.Write(":2}\r\n\n  last");
    p.CloseWrite();
  });
  LineReader reader(p.read_fd(), 1024);
  std::string line;
  EXPECT_EQ(reader.Next(&line), LineReader::Status::kLine);
  EXPECT_EQ(line, "{\"a\":1}");
  EXPECT_EQ(reader.Next(&line), LineReader::Status::kLine);
  EXPECT_EQ(line, "{\"b\":2}");
  EXPECT_EQ(reader.Next(&line), LineReader::Status::kLine);
  EXPECT_EQ(line, "");
  EXPECT_EQ(reader.Next(&line), LineReader::Status::kLine);
  EXPECT_EQ(line, "  last");
  EXPECT_EQ(reader.Next(&line), LineReader::Status::kEof);
  writer.join();
}

TEST(LineReaderTest, OversizedLinesAreSkipped) {
  Pipe p;
  std::thread writer([&] {
    p.Write("short\n");
    for (int i = 0; i < 40; ++i) p.Write(std::string(10000, 'x'));  // 400 KB, no newline yet
    p.Write("\nafter\n");
    p.Write(std::string(300, 'y') + "\n");  // over the cap, newline already in the buffer
    p.Write("end\n");
    p.CloseWrite();
  });
  LineReader reader(p.read_fd(), 256);
  std::string line;
  EXPECT_EQ(reader.Next(&line), LineReader::Status::kLine);
  EXPECT_EQ(line, "short");
  EXPECT_EQ(reader.Next(&line), LineReader::Status::kTooLong);
  EXPECT_EQ(reader.Next(&line), LineReader::Status::kLine);
  EXPECT_EQ(line, "after");
  EXPECT_EQ(reader.Next(&line), LineReader::Status::kTooLong);
  EXPECT_EQ(reader.Next(&line), LineReader::Status::kLine);
  EXPECT_EQ(line, "end");
  EXPECT_EQ(reader.Next(&line), LineReader::Status::kEof);
  writer.join();
}

TEST(LineWriterTest, ConcurrentWritersKeepLinesWhole) {
  Pipe p;
  std::string received;
  std::thread reader([&] {
    char buf[65536];
    for (ssize_t n; (n = read(p.read_fd(), buf, sizeof buf)) > 0;) received.append(buf, n);
  });
  {
    LineWriter writer(p.write_fd());
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < 200; ++i) EXPECT_TRUE(writer.Write(std::string(5000, char('a' + t))));
      });
    }
    for (auto& t : threads) t.join();
  }
  p.CloseWrite();
  reader.join();
  size_t lines = 0;
  for (size_t start = 0; start < received.size();) {
    const size_t end = received.find('\n', start);
    ASSERT_NE(end, std::string::npos);
    const std::string line = received.substr(start, end - start);
    ASSERT_EQ(line, std::string(5000, line[0]));
    ++lines;
    start = end + 1;
  }
  EXPECT_EQ(lines, 800u);
}

TEST(LineWriterTest, ReportsAClosedReader) {
  signal(SIGPIPE, SIG_IGN);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  close(fds[0]);
  LineWriter writer(fds[1]);
  EXPECT_FALSE(writer.Write("x"));
  EXPECT_FALSE(writer.Write("y"));
  close(fds[1]);
}

}  // namespace
}  // namespace tw::mcp
