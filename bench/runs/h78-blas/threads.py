import os, torch
n = lambda: len(os.listdir('/proc/self/task'))
print('after import', n())
torch.set_num_threads(2); torch.nn.functional.gelu(torch.randn(1<<20)); print('after a 2-thread OpenMP op', n())
torch.randn(512, 768) @ torch.randn(768, 768); print('after a product', n())
