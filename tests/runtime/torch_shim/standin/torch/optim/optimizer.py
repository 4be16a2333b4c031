# torch.optim.optimizer: global step post-hooks, called after every Optimizer.step()
_global_post_hooks = []


def register_optimizer_step_post_hook(hook):
    from torch import _log

    _log("register_optimizer_step_post_hook")
    _global_post_hooks.append(hook)


class Optimizer:
    def step(self):
        for hook in list(_global_post_hooks):
            hook(self, (), {})
