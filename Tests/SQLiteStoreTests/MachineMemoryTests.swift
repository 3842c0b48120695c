import HostSupport
import Testing

/// The memory the row cache's default is sized by: the least of the machine's and the limits of this process's
/// control groups, wherever the process runs (a container, a systemd unit, a nested group), read from the files the
/// kernel shows, given here as a dictionary.
struct MachineMemoryTests {
    let physical: UInt64 = 24 << 30

    func available(cgroup: String, files: [String: String]) -> UInt64 {
        MachineMemory.available(physical: physical) { path in path == "/proc/self/cgroup" ? cgroup : files[path] }
    }

    @Test func aSystemdUnitsMemoryMaxIsItsOwnGroupsNotTheRoots() {
        let files = ["/sys/fs/cgroup/system.slice/scheduler.service/memory.max": "2147483648\n"]
        #expect(available(cgroup: "0::/system.slice/scheduler.service\n", files: files) == 2 << 30)
    }

    /// systemd's `MemoryHigh=` (the kernel throttles the group past it), alone or below `MemoryMax=`.
    @Test func memoryHighBoundsTheGroupAsMemoryMaxDoes() {
        let unit = "/sys/fs/cgroup/system.slice/scheduler.service/"
        #expect(available(cgroup: "0::/system.slice/scheduler.service\n", files: [unit + "memory.high": "1610612736\n", unit + "memory.max": "max\n"]) == 1536 << 20)
        #expect(available(cgroup: "0::/system.slice/scheduler.service\n", files: [unit + "memory.high": "1073741824", unit + "memory.max": "2147483648"]) == 1 << 30)
        #expect(available(cgroup: "0::/system.slice/scheduler.service\n", files: [unit + "memory.high": "max", unit + "memory.max": "2147483648"]) == 2 << 30)
    }

    @Test func aLimitAboveTheGroupBoundsItToo() {
        let files = [
            "/sys/fs/cgroup/memory.max": "max\n",
            "/sys/fs/cgroup/apps/memory.max": "1073741824\n",
            "/sys/fs/cgroup/apps/search/memory.max": "max\n",
        ]
        #expect(available(cgroup: "0::/apps/search\n", files: files) == 1 << 30)
    }

    @Test func aContainerThatSeesItsHostsPathReadsItsOwnGroupAsTheRoot() {
        let cgroup = "12:pids:/docker/abc\n4:memory:/docker/abc\n1:name=systemd:/docker/abc\n"
        #expect(available(cgroup: cgroup, files: ["/sys/fs/cgroup/memory/memory.limit_in_bytes": "536870912\n"]) == 512 << 20)
    }

    @Test func cgroupV1sMemoryMountedWithOtherControllers() {
        let files = ["/sys/fs/cgroup/memory/batch/memory.limit_in_bytes": "805306368"]
        #expect(available(cgroup: "5:cpu,memory:/batch/\n", files: files) == 768 << 20)
    }

    @Test func noLimitOrUnreadableTextLeavesTheMachinesMemory() {
        let unlimited = ["/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n", "/sys/fs/cgroup/memory.max": "max", "/sys/fs/cgroup/memory.high": "max"]
        #expect(available(cgroup: "0::/\n", files: unlimited) == physical)
        let nonsense = ["/sys/fs/cgroup/memory.max": "-1", "/sys/fs/cgroup/x/memory.max": "0", "/sys/fs/cgroup/y/memory.max": "12 GB"]
        for cgroup in ["", "garbage", "0::x", "0::/x\n0::/y", "::::", "0:memory", String(repeating: "/", count: 10_000)] {
            #expect(available(cgroup: cgroup, files: nonsense) == physical, "\(cgroup.prefix(20))")
        }
        #expect(MachineMemory.available(physical: physical) { _ in nil } == physical)
    }

    @Test func aLargerLimitThanTheMachineLeavesTheMachines() {
        #expect(available(cgroup: "0::/big\n", files: ["/sys/fs/cgroup/big/memory.max": "\(physical * 2)"]) == physical)
    }
}
