// The shared test helpers (Tests/TestSupport, Tests/ServerTestSupport), visible to every file of
// this test target as they were when they lived here.
@_exported import ServerTestSupport
@_exported import TestSupport
