/*
 * vk_cmd_arena.h - a command pool's host memory kept with the pool from frame to frame.
 *
 * Drivers that record commands on the CPU (lavapipe) allocate every recorded command through
 * the pool's allocator and free them all when the pool or its command buffer is reset. With
 * the C library's allocator that is three mallocs a draw, and, when the frees leave the top of
 * glibc's heap free, a trim that hands the frame's megabytes back to the system, so that the
 * next frame touches them afresh (thousands of page faults a frame: README, "Lavapipe's slow
 * rounds"). An arena given as the pool's VkAllocationCallbacks serves the allocations made
 * while a command buffer records from one block it keeps, a bump each, and takes the block back
 * whole after the reset, when every one of them has been freed (the driver's frees only count
 * them). An allocation that outlives a reset turns the arena off for the pool's life (the
 * driver keeps memory the arena cannot reclaim; everything then comes from the heap, as
 * before). Outside recording (the pool, its command buffers) and when the block is full,
 * allocations come from the heap; the next reset sizes the block for what the recording asked
 * and touches its pages (a block of a frame's commands is megabytes: page faults belong in the
 * reset, not in the draws that fill it).
 * The Vulkan specification has the driver call the callbacks only from the thread of the API
 * call they serve, and a pool is used by one thread at a time, so no lock is needed.
 * Under AddressSanitizer the block's free space is poisoned: a driver that used command memory
 * after freeing it would be reported.
 * Also built into bench/vk-raw-bench, whose raw loop uses it the same way.
 */
#ifndef XGD_VK_CMD_ARENA_H
#define XGD_VK_CMD_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

typedef struct xvk_cmd_arena {
    VkAllocationCallbacks callbacks; /* give to vkCreateCommandPool and vkDestroyCommandPool */
    unsigned char *block;
    size_t capacity, used;
    size_t live;                     /* block allocations not yet freed */
    size_t demand;                   /* bytes this recording asked for, block or heap */
    bool recording;                  /* allocations come from the block */
    bool off;                        /* an allocation outlived a reset: the heap from now on */
    uint64_t heap_allocations;       /* made while recording (the block was full or off) */
} xvk_cmd_arena;

/* Sets the arena up empty (its callbacks point at it: it must not move afterwards). */
void xvk_cmd_arena_init(xvk_cmd_arena *a);
/* Before vkBeginCommandBuffer: the allocations from here on come from the block. */
void xvk_cmd_arena_begin(xvk_cmd_arena *a);
/* After a successful vkResetCommandPool (or vkResetCommandBuffer of the pool's only buffer):
   takes the block back when all its allocations were freed, growing it to what the last
   recording asked for (a failed growth keeps the old block); otherwise turns the arena off. */
void xvk_cmd_arena_reset(xvk_cmd_arena *a);
/* After vkDestroyCommandPool: frees the block. */
void xvk_cmd_arena_release(xvk_cmd_arena *a);

#endif
