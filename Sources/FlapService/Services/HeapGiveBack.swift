import FlapLinux
import ServiceLifecycle

/// Every few minutes, the heap's free pages given back to the kernel (``ProcessHeap``): without
/// it, months of messages and connections leave flapd's private memory a little larger each hour.
struct HeapGiveBack: Service {
    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            guard (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: ProcessHeap.giveBackPeriod) })) != nil else { return }
            ProcessHeap.giveBack()
        }
    }
}
