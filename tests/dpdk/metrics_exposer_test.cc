// /metrics stays available while clients hold connections open without sending a request
// (issue 22: one idle connection used to block every scrape for civetweb's 30 s).

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "metrics/metrics_exposer.h"

namespace fcswitch::metrics {
namespace {

int connect_to(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    if (fd >= 0) close(fd);
    return -1;
  }
  return fd;
}

// A whole HTTP/1.0 exchange: the server closes the connection after the response.
std::string scrape(int port) {
  const int fd = connect_to(port);
  if (fd < 0) return {};
  // A blocked exposer makes the scrape come back empty after 10 s, not hang the test.
  const timeval wait{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof(wait));
  const std::string request = "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
  std::string response;
  if (write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
    char buffer[4096];
    for (ssize_t n; (n = read(fd, buffer, sizeof(buffer))) > 0;) response.append(buffer, n);
  }
  close(fd);
  return response;
}

TEST(MetricsExposer, ScrapesWhileIdleConnectionsAreHeldOpen) {
  MetricsExposer exposer("127.0.0.1:0", std::vector<NamedSwitch>{});
  ASSERT_GT(exposer.port(), 0);
  std::vector<int> idle;
  for (int i = 0; i < 4; ++i) {
    idle.push_back(connect_to(exposer.port()));
    ASSERT_GE(idle.back(), 0);
  }
  const auto start = std::chrono::steady_clock::now();
  const std::string response = scrape(exposer.port());
  const auto took = std::chrono::steady_clock::now() - start;
  for (int fd : idle) close(fd);
  EXPECT_NE(response.find("200 OK"), std::string::npos) << response;
  // The failure this guards against is a 30 s wait; a slow machine takes milliseconds.
  EXPECT_LT(took, std::chrono::seconds(5));
}

// More idle clients than serving threads: each is dropped after the request timeout, and the
// scrape behind them is served then.
TEST(MetricsExposer, IdleClientsAreDroppedAfterTheRequestTimeout) {
  MetricsExposer exposer("127.0.0.1:0", std::vector<NamedSwitch>{});
  std::vector<int> idle;
  for (int i = 0; i < 12; ++i) idle.push_back(connect_to(exposer.port()));
  const std::string response = scrape(exposer.port());
  EXPECT_NE(response.find("200 OK"), std::string::npos) << response;
  // Civetweb closed the idle ones: a read sees end of file (or a reset), not a hang.
  char byte;
  for (int fd : idle) {
    EXPECT_LE(read(fd, &byte, 1), 0);
    close(fd);
  }
}

}  // namespace
}  // namespace fcswitch::metrics
