package io.agentoutcomes.app.streams;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * Bounds the memory of every RocksDB store of the process by one setting, {@value #MEMORY_BYTES_CONFIG}: the stores
 * share one block cache of that size, which also holds their index and filter blocks and is charged for their write
 * buffers (memtables, at most {@value #WRITE_BUFFER_SHARE} of it). Without this each store has its own cache and
 * buffers, so memory grows with the number of stores and partitions. The shape is the one Kafka Streams' memory
 * management guide describes.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {
    public static final String MEMORY_BYTES_CONFIG = "rocksdb.memory.bytes";
    public static final long DEFAULT_MEMORY_BYTES = 64L * 1024 * 1024;
    /** The share of the memory that write buffers may take; the rest is the block cache's. */
    static final double WRITE_BUFFER_SHARE = 0.25;
    /** Index and filter blocks are cached with high priority, in this share of the cache. */
    private static final double HIGH_PRIORITY_SHARE = 0.1;
    /** Each store's memtable: a quarter of the buffers' share (fewer, larger flushes than RocksDB's 64 MB default). */
    private static final int MAX_WRITE_BUFFERS = 3;

    private static Cache cache;
    private static WriteBufferManager writeBuffers;
    private static long size;

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        long bytes = memoryBytes(configs);
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        synchronized (BoundedRocksDbMemory.class) {
            if (cache == null || size != bytes) {
                // The first store sets the shared pool up; a second service in the same JVM with another size gets its own.
                cache = new LRUCache(bytes, -1, false, HIGH_PRIORITY_SHARE);
                writeBuffers = new WriteBufferManager((long) (bytes * WRITE_BUFFER_SHARE), cache);
                size = bytes;
            }
            table.setBlockCache(cache);
            options.setWriteBufferManager(writeBuffers);
        }
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setTableFormatConfig(table);
        options.setMaxWriteBufferNumber(MAX_WRITE_BUFFERS);
        options.setWriteBufferSize(Math.max(1L << 20, (long) (bytes * WRITE_BUFFER_SHARE / 4)));
    }

    static long memoryBytes(Map<String, Object> configs) {
        Object value = configs.get(MEMORY_BYTES_CONFIG);
        if (value == null) {
            return DEFAULT_MEMORY_BYTES;
        }
        long bytes;
        try {
            bytes = Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(MEMORY_BYTES_CONFIG, value, "a number of bytes");
        }
        if (bytes < 4L * 1024 * 1024) {
            throw new ConfigException(MEMORY_BYTES_CONFIG, value, "at least 4194304 (4 MiB)");
        }
        return bytes;
    }

    @Override
    public void close(String storeName, Options options) {
        // The cache and the write buffer manager are shared by every store: they live as long as the process.
    }
}
