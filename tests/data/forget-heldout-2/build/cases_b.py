"""q07-q12. Every label below is the labeller's judgement, written by hand. Every turn, tool call,
tool result and summary here was written for this set."""
from builder import (Case, lab, S, A, ide_opened, ide_selection, reminder_modified, text, image, numbered, edited, created,
                     TODO_OK, todos, command, summary_20, summary_21, summary_short)

DS = '/Users/dmitri/go/src/github.com/dmitri/dotsync'
ML = '/home/ana/proj/tinylm'
WB = '/Users/kofi/work/crumbs-admin'
FW = '/home/rhea/esp/soilmon'
RB = '/Users/hanna/code/rechnung'
CI = '/Users/marco/dev/shopfront'


# --------------------------------------------------------------------------------------------
def q07():
    c = Case('q07-dotsync-dry-run', 'cli', '2.0', seed=4407, pre_tokens=144318, start='2025-08-27T19:05:00')
    t1 = 'add a --dry-run flag to `dotsync push` that prints what it would copy without touching anything'
    c.user('T1', t1, lab('instruction', 'dotsync push --dry-run: print what would be copied, change nothing', t1, 'in_summary', 'verbatim',
                         ['form:verbatim'], S('"add a --dry-run flag to `dotsync push` that prints what it would copy without touching anything"')))
    c.tools([('Read', {'file_path': '%s/cmd/push.go' % DS}, numbered(
        'package cmd\n\nimport (\n\t"errors"\n\t"fmt"\n\t"path/filepath"\n\n\t"github.com/spf13/cobra"\n\n'
        '\t"github.com/dmitri/dotsync/internal/manifest"\n)\n\nvar pushCmd = &cobra.Command{\n\tUse:   "push",\n'
        '\tShort: "Copy tracked dotfiles into the repo",\n\tRunE:  runPush,\n}\n\nfunc init() {\n\trootCmd.AddCommand(pushCmd)\n}')),
        ('Grep', {'pattern': 'func copyFile', 'path': DS, 'output_mode': 'content', '-n': True},
         '%s/internal/fsutil/copy.go:14:func copyFile(src, dst string) error {' % DS)],
        text="Reading the push command first.")
    c.tool('Edit', {'file_path': '%s/cmd/push.go' % DS, 'old_string': 'func init() {\n\trootCmd.AddCommand(pushCmd)\n}',
                    'new_string': 'var pushDryRun bool\n\nfunc init() {\n\tpushCmd.Flags().BoolVar(&pushDryRun, "dry-run", false, '
                                  '"print what would be copied without copying")\n\trootCmd.AddCommand(pushCmd)\n}'},
           edited('%s/cmd/push.go' % DS, 'var pushDryRun bool\n\nfunc init() {\n\tpushCmd.Flags().BoolVar(&pushDryRun, "dry-run", false, '
                  '"print what would be copied without copying")\n\trootCmd.AddCommand(pushCmd)\n}', 20))
    code = ('\tfor _, e := range m.Entries {\n\t\tsrc, dst := e.Source(home), filepath.Join(repo, e.Path)\n'
            '\t\tif err := copyFile(src, dst); err != nil {\n\t\t\treturn errors.New("copy failed")\n\t\t}\n\t}')
    t2 = 'this error msg is useless. wrap it with the path and use %w so callers can errors.Is it'
    c.user('T2', [ide_selection('%s/cmd/push.go' % DS, 41, 46, code), text(t2)],
           lab('instruction', 'wrap the copy error with the path and %w (errors.Is-able)', t2, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_selection'],
               S('copy error should carry the file path and wrap the underlying error with `%w`, so that callers can match it with `errors.Is`'),
               wrapper='ide_selection'))
    c.tool('Edit', {'file_path': '%s/cmd/push.go' % DS, 'old_string': '\t\t\treturn errors.New("copy failed")',
                    'new_string': '\t\t\treturn fmt.Errorf("copy %s to %s: %w", src, dst, err)'},
           edited('%s/cmd/push.go' % DS, '\t\tif err := copyFile(src, dst); err != nil {\n'
                  '\t\t\treturn fmt.Errorf("copy %s to %s: %w", src, dst, err)\n\t\t}', 43))
    c.say("Done, and `errors` is no longer needed in that file, so I removed the import. For a manual test I'd need a config; "
          "should I generate a throwaway one in a temp dir?")
    f3 = "my config's at ~/.config/dotsync/config.toml if u want to test against it"
    c.user('F3', f3, lab('user_fact', 'the user\'s config path ~/.config/dotsync/config.toml', f3, 'lost', 'omitted', ['fact'],
                         distinct=['config.toml', '.config/dotsync'],
                         values=[{'value': '~/.config/dotsync/config.toml', 'status': 'lost', 'found_as': None}]))
    c.tool('Bash', {'command': 'go run . push --dry-run 2>&1 | head -5', 'description': 'Try the dry run against the real config'},
           'would copy /Users/dmitri/.zshrc -> zsh/.zshrc\nwould copy /Users/dmitri/.gitconfig -> git/.gitconfig\n'
           'would copy /Users/dmitri/.config/nvim/init.lua -> nvim/init.lua\n3 files, 0 changes made')
    t4 = ('exit codes: 0 ok, 1 generic error, 3 on conflict (dst changed in the repo since last push). NOT 2, our wrapper '
          'script already uses 2 for usage errors')
    c.user('T4', t4, lab('instruction', 'exit codes 0 ok / 1 generic error / 3 on conflict; never 2 (usage errors)', t4, 'lost', 'omitted',
                         ['form:omitted', 'numeric'],
                         distinct=['exit code', 'exit status', 'os.exit', 'usage error', 'wrapper script', 'conflict', 'generic error']))
    c.say("Got it.")
    c.user('C5', 'cool, ty', lab('chatter', 'chatter: cool, ty', 'cool, ty', 'in_summary', 'verbatim', ['chatter'], S('"cool, ty"')))
    c.say("I'm thinking of using `github.com/google/go-cmp` in the tests to diff the dry-run output.")
    t6 = 'no new deps pls, stdlib + cobra only'
    c.user('T6', t6, lab('instruction', 'no new dependencies: stdlib + cobra only', t6, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:in_tool_result'],
                         A('R6', 'the standard library and github.com/spf13/cobra only', how='in_tool_result'),
                         repeated_after=['in_tool_result']))
    c.say("Fair, `reflect.DeepEqual` plus a readable failure message will do.")
    c.compact(summary_20(
        """Going through the conversation:

1. The user asked for a `--dry-run` flag on `dotsync push` that prints what would be copied without touching anything. I read `cmd/push.go` and added the `pushDryRun` flag.
2. The user selected lines 41-46 of `cmd/push.go` (the `errors.New("copy failed")` return) and asked for a useful, wrapped error. I changed it to `fmt.Errorf("copy %s to %s: %w", src, dst, err)` and dropped the unused `errors` import.
3. I ran `go run . push --dry-run`: three files listed, no changes made.
4. The user said thanks; I moved on to tests.""",
        {
            'Primary Request and Intent': [
                'Add a `--dry-run` flag to `dotsync push` that prints what it would copy without touching anything',
                'The copy error should carry the file path and wrap the underlying error with `%w`, so that callers can match it with `errors.Is`',
            ],
            'Key Technical Concepts': ['Go, cobra commands (`cmd/`)', 'Error wrapping with `%w`, `errors.Is`', 'Manifest entries: `e.Source(home)` → `repo/e.Path`'],
            'Files and Code Sections': [
                '`%s/cmd/push.go`\n  - `pushDryRun` flag registered in `init()`\n  - copy error now `fmt.Errorf("copy %%s to %%s: %%w", src, dst, err)`' % DS,
                '`%s/internal/fsutil/copy.go`\n  - `copyFile(src, dst string) error` (unchanged)' % DS,
            ],
            'Errors and fixes': ['Unused `errors` import after the change → removed.'],
            'Problem Solving': 'The dry run prints `would copy SRC -> DST` per entry and a final count; it shares the loop with the real push so both stay in sync.',
            'All user messages': [
                '"add a --dry-run flag to `dotsync push` that prints what it would copy without touching anything"',
                'Selected the copy error in `cmd/push.go` and asked for it to include the path and wrap the error with `%w` for `errors.Is`',
                '"cool, ty"',
            ],
            'Pending Tasks': ['Table-driven tests for the dry run'],
            'Current Work': 'Starting the tests for `push --dry-run`, comparing output with `reflect.DeepEqual`.',
            'Optional Next Step': 'Write `cmd/push_test.go`.',
        }))
    c.tool('Read', {'file_path': '%s/CONTRIBUTING.md' % DS}, numbered(
        '# Contributing\n\n- Run `go vet ./...` and `go test ./...` before opening a PR.\n'
        '- Dependencies: the standard library and github.com/spf13/cobra only. PRs that add other modules to go.mod are not accepted.\n'
        '- Tests live next to the code (`foo_test.go`), table-driven where possible.'),
           text="Checking the contribution rules before writing the tests.", anchor='R6')
    c.tool('Write', {'file_path': '%s/cmd/push_test.go' % DS, 'content':
                     'package cmd\n\nimport (\n\t"bytes"\n\t"reflect"\n\t"strings"\n\t"testing"\n)\n\n'
                     'func TestPushDryRun(t *testing.T) {\n\ttests := []struct {\n\t\tname    string\n\t\tentries []string\n\t\twant    []string\n\t}{\n'
                     '\t\t{"empty", nil, []string{"0 files, 0 changes made"}},\n'
                     '\t\t{"one", []string{".zshrc"}, []string{"would copy HOME/.zshrc -> .zshrc", "1 files, 0 changes made"}},\n\t}\n'
                     '\tfor _, tt := range tests {\n\t\tt.Run(tt.name, func(t *testing.T) {\n\t\t\tvar out bytes.Buffer\n'
                     '\t\t\trunDryRun(&out, fakeManifest(tt.entries), "HOME", t.TempDir())\n'
                     '\t\t\tgot := strings.Split(strings.TrimSpace(out.String()), "\\n")\n'
                     '\t\t\tif !reflect.DeepEqual(got, tt.want) {\n\t\t\t\tt.Errorf("got %q, want %q", got, tt.want)\n\t\t\t}\n\t\t})\n\t}\n}\n'},
           created('%s/cmd/push_test.go' % DS),
           text="Stdlib only, as the contribution guide says. Table-driven test for the dry run:")
    c.say("Next I'll make the real push refuse to overwrite a repo file that was edited since the last push, and return an error for it.")
    return c.write({'situations': ['verbatim quotes in the user-message list', 'wrapper:ide_selection, paraphrased',
                                   'fact (config path) silently dropped', 'numeric rule silently dropped; the assistant plans the related error after the boundary',
                                   'repeat:in_tool_result (CONTRIBUTING.md)', 'chatter quoted']})


# --------------------------------------------------------------------------------------------
def q08():
    c = Case('q08-tinylm-divergence', 'ml', '2.1', seed=4408, pre_tokens=168450, start='2026-01-09T11:20:00')
    t1 = 'training diverges around step 12k, loss goes nan. add grad clipping at 1.0 and log the grad norm every 100 steps'
    c.user('T1', t1, lab('instruction', 'divergence ~12k steps: grad clipping at 1.0, log grad norm every 100 steps', t1, 'in_summary',
                         'paraphrase', ['form:paraphrase', 'numeric', 'numbers-as-words'],
                         S('gradient clipping with a maximum norm of one is to be added, and the gradient norm logged every hundred steps'),
                         values=[{'value': '1.0', 'status': 'in_summary', 'found_as': 'a maximum norm of one'},
                                 {'value': '100 steps', 'status': 'in_summary', 'found_as': 'every hundred steps'}]))
    c.tools([('Read', {'file_path': '%s/train.py' % ML, 'offset': 80, 'limit': 30}, numbered(
        '    for step, batch in enumerate(loader, start=start_step):\n        with ctx:\n            logits = model(batch["input_ids"])\n'
        '            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), batch["labels"].view(-1))\n'
        '        scaler.scale(loss / cfg.data.grad_accum).backward()\n        if (step + 1) % cfg.data.grad_accum == 0:\n'
        '            scaler.step(optimizer)\n            scaler.update()\n            optimizer.zero_grad(set_to_none=True)\n'
        '            scheduler.step()\n        if step % cfg.log_every == 0:\n            logger.log({"loss": loss.item(), "lr": scheduler.get_last_lr()[0]}, step=step)', 80)),
        ('Bash', {'command': 'grep -n "nan\\|inf" logs/run-0411/train.log | head -3', 'description': 'Find the first NaN in the last run'},
         '12207: step 12207 loss nan lr 5.71e-04\n12208: step 12208 loss nan lr 5.71e-04\n12209: step 12209 loss nan lr 5.71e-04')],
        text="Looking at the training loop and the last run's log.")
    c.tool('Edit', {'file_path': '%s/train.py' % ML,
                    'old_string': '            scaler.step(optimizer)',
                    'new_string': '            scaler.unscale_(optimizer)\n'
                                  '            grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.optim.grad_clip)\n'
                                  '            if step % 100 == 0:\n                logger.log({"grad_norm": grad_norm.item()}, step=step)\n'
                                  '            scaler.step(optimizer)'},
           edited('%s/train.py' % ML, '        if (step + 1) % cfg.data.grad_accum == 0:\n            scaler.unscale_(optimizer)\n'
                  '            grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.optim.grad_clip)\n'
                  '            if step % 100 == 0:\n                logger.log({"grad_norm": grad_norm.item()}, step=step)\n'
                  '            scaler.step(optimizer)', 85))
    t2 = ('lower lr to 3e-4 and keep warmup at 2000 steps. dont touch anything else in this config, its the one from the paper '
          'and i want the runs comparable\n\n'
          '```yaml\noptim:\n  lr: 6.0e-4\n  betas: [0.9, 0.95]\n  weight_decay: 0.1\n  warmup_steps: 2000\n  schedule: cosine\n'
          '  min_lr: 6.0e-5\n  grad_clip: 1.0\ndata:\n  seq_len: 2048\n  batch_size: 32\n  grad_accum: 4\n```')
    c.user('T2', t2, lab('instruction', 'lr 3e-4, warmup stays 2000; nothing else in the config changes (pasted config)', t2, 'lost', 'partial',
                         ['form:partial', 'partial', 'paste:config', 'numeric'], partial=True,
                         lost_part="don't touch anything else in this config (it's the paper's config, runs must stay comparable)",
                         distinct=['anything else', 'rest of the config', 'from the paper', 'untouched', 'other settings', 'comparable',
                                   'dont touch', "don't touch"],
                         values=[{'value': '3e-4', 'status': 'in_summary', 'found_as': '3e-4'},
                                 {'value': '2000 steps', 'status': 'in_summary', 'found_as': 'two thousand steps'}]))
    c.tool('Edit', {'file_path': '%s/configs/base.yaml' % ML, 'old_string': '  lr: 6.0e-4', 'new_string': '  lr: 3.0e-4'},
           edited('%s/configs/base.yaml' % ML, 'optim:\n  lr: 3.0e-4\n  betas: [0.9, 0.95]', 1))
    c.say("Done. How many GPUs does the box have? With grad_accum 4 I want to check the effective batch size.")
    f3 = 'box has 4x A100 40GB'
    c.user('F3', f3, lab('user_fact', 'hardware: 4x A100 40GB', f3, 'in_summary', 'form:four A100 GPUs (40 GB each)', ['fact'],
                         S('four A100 GPUs (40 GB each)'),
                         values=[{'value': '4x A100 40GB', 'status': 'in_summary', 'found_as': 'four A100 GPUs (40 GB each)'}]))
    c.say("So an effective batch of 4 × 32 × 4 = 512 sequences of 2048 tokens, about 1M tokens per step. That's fine for this model size.")
    c.user('C4', 'ooh ok', lab('chatter', 'chatter: ooh ok', 'ooh ok', 'lost', 'omitted', ['chatter']))
    t5 = 'use bf16 autocast not fp16, and drop the GradScaler. A100s do bf16 natively'
    c.user('T5', t5, lab('instruction', 'bf16 autocast instead of fp16; remove the GradScaler', t5, 'lost', 'omitted',
                         ['form:omitted', 'after:assistant-topic'],
                         distinct=['bf16', 'bfloat16', 'fp16', 'float16', 'gradscaler', 'scaler', 'autocast', 'natively']))
    c.say("Makes sense, I'll switch that over when I touch the loop again.")
    t6 = 'checkpoints go to /mnt/ckpt/run-0412 and keep only the last 3, the disk is small'
    c.user('T6', t6, lab('instruction', 'checkpoints to /mnt/ckpt/run-0412, keep only the last 3', t6, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:paraphrase', 'numeric'],
                         A('U6', 'ckpts into /mnt/ckpt/run-0412 pls and only keep 3 around, disk is tiny', how='paraphrase'),
                         repeated_after=['paraphrase'],
                         values=[{'value': '/mnt/ckpt/run-0412', 'status': 'repeated_later', 'found_as': '/mnt/ckpt/run-0412'}]))
    c.say("Noted.")
    t7 = 'seed everything with 1337 so runs are comparable'
    c.user('T7', [ide_opened('%s/train.py' % ML), text(t7)],
           lab('instruction', 'seed everything with 1337', t7, 'in_summary', 'paraphrase', ['form:paraphrase', 'wrapper:ide_opened_file'],
               S('All random number generators are to be seeded with 1337'), wrapper='ide_opened_file',
               values=[{'value': '1337', 'status': 'in_summary', 'found_as': '1337'}]))
    c.tool('Edit', {'file_path': '%s/train.py' % ML, 'old_string': 'def main(cfg):\n',
                    'new_string': 'def seed_everything(seed: int) -> None:\n    random.seed(seed)\n    np.random.seed(seed)\n'
                                  '    torch.manual_seed(seed)\n    torch.cuda.manual_seed_all(seed)\n\n\ndef main(cfg):\n    seed_everything(1337)\n'},
           edited('%s/train.py' % ML, 'def seed_everything(seed: int) -> None:\n    random.seed(seed)\n    np.random.seed(seed)\n'
                  '    torch.manual_seed(seed)\n    torch.cuda.manual_seed_all(seed)\n\n\ndef main(cfg):\n    seed_everything(1337)', 40))
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Training diverges at roughly step twelve thousand (the loss becomes NaN); gradient clipping with a maximum norm of one is to be added, and the gradient norm logged every hundred steps',
            'The peak learning rate is lowered to 3e-4, with warmup kept at two thousand steps (the user pasted `configs/base.yaml`)',
            'All random number generators are to be seeded with 1337',
        ],
        'Key Technical Concepts': [
            'PyTorch training loop with gradient accumulation (4) and a cosine schedule',
            'Hardware: four A100 GPUs (40 GB each); effective batch 512 × 2048 tokens ≈ 1M tokens per step',
            '`clip_grad_norm_` after unscaling, logged as `grad_norm`',
        ],
        'Files and Code Sections': [
            '`%s/train.py`\n  - clipping + `grad_norm` logging in the optimizer step\n  - `seed_everything(1337)` at the start of `main`' % ML,
            '`%s/configs/base.yaml`\n  - `optim.lr: 3.0e-4` (was 6.0e-4); `warmup_steps: 2000`; `grad_clip: 1.0`' % ML,
        ],
        'Errors and fixes': ['First NaN in run-0411 at step 12207 (lr 5.71e-04).'],
        'Problem Solving': 'The NaNs start right after the peak of the learning-rate schedule, which points to the learning rate plus unclipped gradient spikes.',
        'All user messages': [
            'Reported the divergence near step twelve thousand and asked for clipping at one plus gradient-norm logging every hundred steps',
            'Asked for the learning rate to go to 3e-4 with warmup staying at two thousand steps, pasting the config',
            'Said the machine has four A100 40 GB GPUs',
            'Asked for everything to be seeded with 1337 so runs can be compared',
        ],
        'Pending Tasks': ['Start run-0412 with the new settings'],
        'Current Work': 'Just added `seed_everything(1337)` to `train.py`.',
        'Optional Next Step': 'Launch run-0412 and watch `grad_norm` around step twelve thousand.',
    }))
    c.tool('Edit', {'file_path': '%s/configs/base.yaml' % ML, 'old_string': '  weight_decay: 0.1', 'new_string': '  weight_decay: 0.05'},
           edited('%s/configs/base.yaml' % ML, 'optim:\n  lr: 3.0e-4\n  betas: [0.9, 0.95]\n  weight_decay: 0.05', 1),
           text="Before launching: with the lower learning rate I'll also halve the weight decay so the effective regularisation stays similar.")
    c.say("I'll keep the mixed-precision setup in `train.py` as it is for this run, so the only moving parts are the optimizer settings. Launching run-0412 next.")
    c.user('U6', 'ckpts into /mnt/ckpt/run-0412 pls and only keep 3 around, disk is tiny', after=dict(repeat_of='T6', mode='paraphrase'))
    c.tool('Bash', {'command': 'torchrun --nproc_per_node=4 train.py --config configs/base.yaml --ckpt-dir /mnt/ckpt/run-0412 --keep-last 3 > logs/run-0412/train.log 2>&1 &',
                    'description': 'Launch run-0412 in the background', 'run_in_background': True},
           'Command running in background with ID: b7e21c')
    return c.write({'situations': ['numbers written as words (twelve thousand, one, hundred)', 'paste:config + partial (keep the rest of the config untouched dropped)',
                                   'the assistant changes another config value after the boundary', 'omitted precision rule; the assistant talks about mixed precision after the boundary',
                                   'repeat:paraphrase by the user', 'wrapper:ide_opened_file', 'fact in words (four A100)']})


# --------------------------------------------------------------------------------------------
def q09():
    c = Case('q09-crumbs-orders-table', 'web', 'short', seed=4409, pre_tokens=152777, start='2025-10-30T14:00:00')
    t1 = ("[Image #1] figma for the new orders table. match the spacing exactly, and the status pills use the colors "
          "from src/theme/tokens.ts, dont invent new ones")
    c.user('T1', [image((245, 245, 250)), text(t1)],
           lab('instruction', 'orders table per Figma (exact spacing); status pills use src/theme/tokens.ts colours, no new ones', t1,
               'lost', 'partial', ['form:partial', 'partial', 'image'], partial=True,
               lost_part='status pills use the colours from src/theme/tokens.ts; no new colours',
               distinct=['tokens.ts', 'pill', 'invent', 'new colors', 'new colours', 'theme/tokens', 'design token']))
    c.tools([('Bash', {'command': 'ls src/features/orders src/components/table', 'description': 'List order feature and table components'},
              'src/components/table:\nDataTable.tsx\nTablePagination.tsx\n\nsrc/features/orders:\nOrdersPage.tsx\nuseOrders.ts'),
             ('Read', {'file_path': '%s/src/features/orders/useOrders.ts' % WB}, numbered(
                 "import { useQuery } from '@tanstack/react-query'\nimport { api } from '@/lib/api'\n\n"
                 "export function useOrders() {\n  return useQuery({ queryKey: ['orders'], queryFn: () => api.get('/orders').then((r) => r.data) })\n}"))],
        text="Looking at the existing orders feature.")
    c.say("The mock-up has 12px cell padding, 48px rows and a 1px divider. Should I build on the existing `DataTable` (plain `<table>`) or use a table library?")
    t2 = 'use tanstack table, its already in package.json'
    c.user('T2', t2, lab('instruction', 'use TanStack Table (already in package.json)', t2, 'in_summary', 'paraphrase', ['form:paraphrase'],
                         S('TanStack Table is to be used (it is already a dependency)')))
    c.user('C3', 'lol yes', lab('chatter', 'chatter: lol yes', 'lol yes', 'lost', 'omitted', ['chatter']))
    c.tool('Write', {'file_path': '%s/src/features/orders/OrdersTable.tsx' % WB, 'content':
                     "import { useReactTable, getCoreRowModel, flexRender, createColumnHelper } from '@tanstack/react-table'\n"
                     "import type { Order } from './types'\n\nconst col = createColumnHelper<Order>()\n\nexport const columns = [\n"
                     "  col.accessor('number', { header: 'Order' }),\n  col.accessor('customerName', { header: 'Customer' }),\n"
                     "  col.accessor('status', { header: 'Status', cell: (c) => <StatusBadge status={c.getValue()} /> }),\n"
                     "  col.accessor('total', { header: 'Total' }),\n]\n"},
           created('%s/src/features/orders/OrdersTable.tsx' % WB))
    t4 = 'server side pagination pls, api takes ?page=&per_page=. 50 per page'
    c.user('T4', t4, lab('instruction', 'server-side pagination via ?page=&per_page=, 50 per page', t4, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'numeric'],
                         S('Pagination happens on the server through the `page` and `per_page` query parameters, fifty rows per page'),
                         values=[{'value': '50', 'status': 'in_summary', 'found_as': 'fifty'}]))
    c.tool('Edit', {'file_path': '%s/src/features/orders/useOrders.ts' % WB,
                    'old_string': "export function useOrders() {\n  return useQuery({ queryKey: ['orders'], queryFn: () => api.get('/orders').then((r) => r.data) })\n}",
                    'new_string': "export const PER_PAGE = 50\n\nexport function useOrders(page: number) {\n  return useQuery({\n"
                                  "    queryKey: ['orders', page],\n    queryFn: () => api.get('/orders', { params: { page, per_page: PER_PAGE } }).then((r) => r.data),\n"
                                  "    placeholderData: keepPreviousData,\n  })\n}"},
           edited('%s/src/features/orders/useOrders.ts' % WB, "export const PER_PAGE = 50\n\nexport function useOrders(page: number) {\n"
                  "  return useQuery({\n    queryKey: ['orders', page],\n"
                  "    queryFn: () => api.get('/orders', { params: { page, per_page: PER_PAGE } }).then((r) => r.data),\n"
                  "    placeholderData: keepPreviousData,\n  })\n}", 4))
    c.say("Which base URL should I test against? `.env.development` points at localhost:8000 and nothing is running there.")
    f5 = 'staging api is https://staging.crumbs.dev/api/v2'
    c.user('F5', f5, lab('user_fact', 'staging API base URL https://staging.crumbs.dev/api/v2', f5, 'lost', 'omitted', ['fact'],
                         distinct=['staging.crumbs.dev', 'api/v2'],
                         values=[{'value': 'https://staging.crumbs.dev/api/v2', 'status': 'lost', 'found_as': None}]))
    c.say("Thanks, I'll use that for a manual check.")
    t6 = '[Image #1] the sort arrow should sit left of the header text, like this'
    c.user('T6', [image((250, 250, 252)), text(t6)],
           lab('instruction', 'sort arrow left of the header text (screenshot)', t6, 'lost', 'omitted',
               ['form:omitted', 'image', 'summary:mentions-without-content'],
               distinct=['arrow', 'left of the header', 'sort icon', 'sort indicator', 'chevron', 'caret']))
    c.say("Will do after the pagination controls.")
    t7 = 'no `any` pls, strict ts'
    c.user('T7', t7, lab('instruction', 'no `any`, strict TypeScript', t7, 'repeated_later', 'omitted', ['form:omitted', 'repeat:verbatim'],
                         A('U7', 'no `any` pls, strict ts', how='verbatim'), repeated_after=['verbatim']))
    c.tool('Bash', {'command': 'npx tsc --noEmit -p . 2>&1 | tail -3', 'description': 'Type-check'},
           "src/features/orders/OrdersTable.tsx(9,62): error TS2304: Cannot find name 'StatusBadge'.\nFound 1 error in src/features/orders/OrdersTable.tsx:9")
    c.compact(summary_short({
        'Primary Request and Intent': [
            'Build the new orders table to match the Figma mock-up (screenshot), with exactly the same spacing',
            'TanStack Table is to be used (it is already a dependency)',
            'Pagination happens on the server through the `page` and `per_page` query parameters, fifty rows per page',
            'A second screenshot concerning the column headers was shared',
        ],
        'Key Technical Concepts': [
            'React + TypeScript, `@tanstack/react-table` column helpers, `@tanstack/react-query` with `keepPreviousData`',
            'Mock-up metrics: 12px cell padding, 48px rows, 1px divider',
        ],
        'Files and Code Sections': [
            '`%s/src/features/orders/OrdersTable.tsx` (new)\n  - columns Order, Customer, Status (`StatusBadge`), Total' % WB,
            '`%s/src/features/orders/useOrders.ts`\n  - `useOrders(page)`, `PER_PAGE = 50`, `params: { page, per_page }`' % WB,
        ],
        'Problem Solving': '`tsc` reports `StatusBadge` is not defined yet (OrdersTable.tsx line 9).',
        'Pending Tasks': ['Create `StatusBadge`', 'Pagination controls', 'Header changes from the second screenshot'],
        'Current Work': 'Fixing the type-check error by writing the `StatusBadge` component.',
        'Optional Next Step': 'Create `src/features/orders/StatusBadge.tsx`, then re-run `tsc`.',
    }))
    c.tool('Write', {'file_path': '%s/src/features/orders/StatusBadge.tsx' % WB, 'content':
                     "const STYLES: Record<string, { bg: string; fg: string }> = {\n  paid: { bg: '#dcfce7', fg: '#166534' },\n"
                     "  pending: { bg: '#fef9c3', fg: '#854d0e' },\n  refunded: { bg: '#e0e7ff', fg: '#3730a3' },\n"
                     "  cancelled: { bg: '#fee2e2', fg: '#991b1b' },\n}\n\nexport function StatusBadge({ status }: { status: any }) {\n"
                     "  const s = STYLES[status] ?? STYLES.pending\n"
                     "  return <span style={{ background: s.bg, color: s.fg, borderRadius: 999, padding: '2px 8px' }}>{status}</span>\n}\n"},
           created('%s/src/features/orders/StatusBadge.tsx' % WB),
           text="Writing the status badge.")
    c.user('U7', 'no `any` pls, strict ts', after=dict(repeat_of='T7', mode='verbatim'))
    c.tool('Edit', {'file_path': '%s/src/features/orders/StatusBadge.tsx' % WB,
                    'old_string': 'export function StatusBadge({ status }: { status: any }) {',
                    'new_string': "export function StatusBadge({ status }: { status: Order['status'] }) {"},
           edited('%s/src/features/orders/StatusBadge.tsx' % WB, "export function StatusBadge({ status }: { status: Order['status'] }) {", 8),
           text="Right, typed it with the `Order['status']` union instead.")
    return c.write({'situations': ['image turn, partial (token colours dropped); the assistant hard-codes new colours after the boundary',
                                   'image turn mentioned without its content (lost)', 'numbers as words (fifty)', 'fact (staging URL) lost',
                                   'repeat:verbatim by the user', 'short summary']})


# --------------------------------------------------------------------------------------------
def q10():
    c = Case('q10-soilmon-power', 'firmware', '2.0', seed=4410, pre_tokens=147002, start='2025-06-12T21:40:00')
    t1 = ('board browns out every time wifi connects. stagger the init so the bme280 only comes up after wifi is connected, '
          'not at the same time')
    c.user('T1', t1 + '\n' + reminder_modified('%s/main/app_main.c' % FW),
           lab('instruction', 'brownout on Wi-Fi connect: initialise the BME280 only after Wi-Fi is connected', t1, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'passive', 'wrapper:system-reminder', 'reminder:after'],
               S('Sensor initialisation is to be deferred until the Wi-Fi connection has been established, so that the BME280 is not powered up concurrently with the radio'),
               wrapper='system-reminder'))
    c.tools([('Read', {'file_path': '%s/main/app_main.c' % FW}, numbered(
        '#include "freertos/FreeRTOS.h"\n#include "esp_log.h"\n#include "wifi.h"\n#include "bme280_port.h"\n\n'
        'static const char *TAG = "soilmon";\n\nvoid app_main(void)\n{\n    ESP_ERROR_CHECK(nvs_flash_init());\n'
        '    bme280_port_init(I2C_NUM_0, 8, 9);\n    wifi_start(CONFIG_SOILMON_SSID, CONFIG_SOILMON_PASS);\n'
        '    while (1) {\n        publish_reading();\n        vTaskDelay(pdMS_TO_TICKS(60000));\n    }\n}')),
        ('Bash', {'command': 'idf.py -p /dev/ttyACM0 monitor --no-reset 2>&1 | head -4', 'description': 'Capture the boot log'},
         'I (312) wifi:mode : sta (58:cf:79:1a:22:04)\nI (318) soilmon: bme280 id 0x60\n'
         'Brownout detector was triggered\n\nESP-ROM:esp32c3-api1-20210207')],
        text="Reading `app_main.c` and capturing a boot log.")
    c.say("The radio's TX calibration and the BME280's forced measurement draw current at the same moment, and the 3.3 V rail dips below "
          "the brownout threshold. I'll wait on the Wi-Fi connected event bit before calling `bme280_port_init`. Which exact board is this?")
    f2 = 'its an esp32-c3 devkitm-1'
    c.user('F2', f2, lab('user_fact', 'board ESP32-C3-DevKitM-1', f2, 'in_summary', 'form:ESP32-C3-DevKitM-1', ['fact'],
                         S('ESP32-C3-DevKitM-1'),
                         values=[{'value': 'esp32-c3 devkitm-1', 'status': 'in_summary', 'found_as': 'ESP32-C3-DevKitM-1'}]))
    c.tool('Edit', {'file_path': '%s/main/app_main.c' % FW,
                    'old_string': '    bme280_port_init(I2C_NUM_0, 8, 9);\n    wifi_start(CONFIG_SOILMON_SSID, CONFIG_SOILMON_PASS);',
                    'new_string': '    wifi_start(CONFIG_SOILMON_SSID, CONFIG_SOILMON_PASS);\n'
                                  '    xEventGroupWaitBits(wifi_events, WIFI_CONNECTED_BIT, pdFALSE, pdTRUE, pdMS_TO_TICKS(15000));\n'
                                  '    bme280_port_init(I2C_NUM_0, 8, 9);'},
           edited('%s/main/app_main.c' % FW, '    ESP_ERROR_CHECK(nvs_flash_init());\n    wifi_start(CONFIG_SOILMON_SSID, CONFIG_SOILMON_PASS);\n'
                  '    xEventGroupWaitBits(wifi_events, WIFI_CONNECTED_BIT, pdFALSE, pdTRUE, pdMS_TO_TICKS(15000));\n'
                  '    bme280_port_init(I2C_NUM_0, 8, 9);', 10))
    t3 = 'deep sleep between readings, wake every 5 min'
    c.user('T3', t3, lab('instruction', 'deep sleep between readings; wake every 5 minutes', t3, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'passive', 'numeric'],
                         S('the device is to be put into deep sleep between readings and woken by the timer every five minutes'),
                         values=[{'value': '5 min', 'status': 'in_summary', 'found_as': 'five minutes'}]))
    c.say("That changes the structure: with deep sleep, `app_main` runs once per wake-up, so the loop goes away and Wi-Fi reconnects on "
          "every boot. The staggered init still applies on each wake.")
    t4 = 'stay on esp-idf apis, no arduino libs'
    c.user('T4', t4, lab('instruction', 'ESP-IDF APIs only, no Arduino libraries', t4, 'lost', 'omitted', ['form:omitted'],
                         distinct=['arduino', 'idf apis', 'esp-idf apis']))
    c.user('C5', 'ok that makes sense', lab('chatter', 'chatter: ok that makes sense', 'ok that makes sense', 'in_summary', 'paraphrase',
                                            ['chatter'], S('Acknowledged the explanation of the wake-up structure')))
    c.tool('Edit', {'file_path': '%s/main/app_main.c' % FW,
                    'old_string': '    while (1) {\n        publish_reading();\n        vTaskDelay(pdMS_TO_TICKS(60000));\n    }',
                    'new_string': '    publish_reading();\n    esp_sleep_enable_timer_wakeup(5ULL * 60 * 1000000);\n    esp_deep_sleep_start();'},
           edited('%s/main/app_main.c' % FW, '    bme280_port_init(I2C_NUM_0, 8, 9);\n    publish_reading();\n'
                  '    esp_sleep_enable_timer_wakeup(5ULL * 60 * 1000000);\n    esp_deep_sleep_start();\n}', 13))
    t6 = 'uart logging at 115200 but only when DEBUG_LOG is defined, the release build has to be totally silent (battery)'
    c.user('T6', t6, lab('instruction', 'UART logs at 115200 only when DEBUG_LOG is defined; release build silent', t6, 'lost', 'partial',
                         ['form:partial', 'partial', 'numeric'], partial=True,
                         lost_part='only when DEBUG_LOG is defined; the release build must be silent',
                         distinct=['DEBUG_LOG', 'silent', 'release build', 'only when', '#ifdef', 'LOG_LEVEL_NONE'],
                         values=[{'value': '115200', 'status': 'in_summary', 'found_as': '115200 baud'}]))
    c.say("I'll set that up in `sdkconfig.defaults` and the logging init.")
    c.user('C7', 'nice 🎉', lab('chatter', 'chatter: nice 🎉', 'nice 🎉', 'lost', 'omitted', ['chatter']))
    c.compact(summary_20(
        """Reviewing the conversation:

1. The board was reported to brown out whenever Wi-Fi connects; the user asked for the BME280 to be brought up only after Wi-Fi is connected. A boot log confirmed `Brownout detector was triggered` right after the first BME280 read.
2. The board was identified as an ESP32-C3-DevKitM-1.
3. `app_main.c` was changed to wait on `WIFI_CONNECTED_BIT` (15 s timeout) before `bme280_port_init`.
4. Deep sleep between readings was requested, with a timer wake-up every five minutes; the loop was replaced by one reading per wake-up followed by `esp_deep_sleep_start()`.
5. UART logging at 115200 baud was requested.""",
        {
            'Primary Request and Intent': [
                'Sensor initialisation is to be deferred until the Wi-Fi connection has been established, so that the BME280 is not powered up concurrently with the radio (brownouts were observed on connect)',
                'Additionally, the device is to be put into deep sleep between readings and woken by the timer every five minutes',
                'Logging is to be done over the UART at 115200 baud',
            ],
            'Key Technical Concepts': [
                'ESP32-C3-DevKitM-1; brownout detector; current spike from RF calibration + sensor measurement',
                'FreeRTOS event group `wifi_events` / `WIFI_CONNECTED_BIT`',
                '`esp_sleep_enable_timer_wakeup`, `esp_deep_sleep_start`: `app_main` runs once per wake-up',
            ],
            'Files and Code Sections': [
                '`%s/main/app_main.c`\n  - `wifi_start` → wait for `WIFI_CONNECTED_BIT` → `bme280_port_init(I2C_NUM_0, 8, 9)` → `publish_reading()` → deep sleep (5 min timer)' % FW,
            ],
            'Errors and fixes': ['`Brownout detector was triggered` after Wi-Fi start → sensor init moved after the connection.'],
            'Problem Solving': 'Wi-Fi now reconnects on every wake-up; the staggered initialisation applies on each boot.',
            'All user messages': [
                'Reported the brownout on Wi-Fi connect and asked for the sensor to come up only after Wi-Fi is connected',
                'Named the board (ESP32-C3-DevKitM-1)',
                'Asked for deep sleep between readings with a five-minute wake-up',
                'Acknowledged the explanation of the wake-up structure',
                'Asked for UART logging at 115200 baud',
            ],
            'Pending Tasks': ['Configure UART logging at 115200 baud in `sdkconfig.defaults` and the logging init'],
            'Current Work': 'About to edit `sdkconfig.defaults` for the console UART settings.',
            'Optional Next Step': 'Set `CONFIG_ESP_CONSOLE_UART_BAUDRATE=115200` and build.',
        }))
    c.tool('Edit', {'file_path': '%s/sdkconfig.defaults' % FW, 'old_string': 'CONFIG_ESP_CONSOLE_UART_DEFAULT=y',
                    'new_string': 'CONFIG_ESP_CONSOLE_UART_DEFAULT=y\nCONFIG_ESP_CONSOLE_UART_BAUDRATE=115200\nCONFIG_LOG_DEFAULT_LEVEL_INFO=y'},
           edited('%s/sdkconfig.defaults' % FW, 'CONFIG_ESP_CONSOLE_UART_DEFAULT=y\nCONFIG_ESP_CONSOLE_UART_BAUDRATE=115200\n'
                  'CONFIG_LOG_DEFAULT_LEVEL_INFO=y', 4))
    c.tool('Edit', {'file_path': '%s/main/app_main.c' % FW, 'old_string': '    publish_reading();',
                    'new_string': '    ESP_LOGI(TAG, "woke up, cause=%d", esp_sleep_get_wakeup_cause());\n    publish_reading();'},
           edited('%s/main/app_main.c' % FW, '    ESP_LOGI(TAG, "woke up, cause=%d", esp_sleep_get_wakeup_cause());\n    publish_reading();', 14),
           text="Console at 115200 with INFO level; adding a wake-up log line so the cycle is visible.")
    c.tool('Bash', {'command': 'idf.py build 2>&1 | tail -2', 'description': 'Build the firmware'},
           'Project build complete. To flash, run:\n idf.py -p (PORT) flash')
    c.say("Build is clean. Next I'd add a BME280 driver for the forced-mode read from the component registry to replace the hand-rolled `bme280_port.c`.")
    return c.write({'situations': ['heavy passive paraphrase', 'wrapper:system-reminder after the request in the same string',
                                   'numbers as words (five minutes)', 'partial (DEBUG_LOG-only, silent release dropped); the assistant adds logging after the boundary',
                                   'framework rule silently dropped', 'chatter paraphrased in the user-message list', 'fact re-cased']})


# --------------------------------------------------------------------------------------------
def q11():
    c = Case('q11-rechnung-csv-export', 'rails', '2.1', seed=4411, pre_tokens=166013, start='2026-03-17T08:50:00')
    t1 = 'csv export of invoices for the accountant. one file per month, filterable by customer'
    c.user('T1', command('plan', t1),
           lab('instruction', 'CSV export of invoices for the accountant: one file per month, filterable by customer', t1, 'in_summary',
               'paraphrase', ['form:paraphrase', 'wrapper:command-args'],
               S('a CSV export of invoices for the external accountant, producing one file per calendar month and optionally restricted to a single customer'),
               wrapper='command-args'))
    c.user(None, [text('Write a short step-by-step implementation plan for the request below, list the files you will touch, '
                       'and wait for approval before writing code.\n\nARGUMENTS: ' + t1)], meta=True, wait=(1, 2))
    c.tools([('Read', {'file_path': '%s/app/models/invoice.rb' % RB}, numbered(
        'class Invoice < ApplicationRecord\n  belongs_to :customer\n  has_many :line_items, dependent: :destroy\n\n'
        '  scope :issued_in, ->(month) { where(issued_on: month.all_month) }\n\n  monetize :total_cents\nend')),
        ('Bash', {'command': 'bin/rails routes -g invoice | head -5', 'description': 'Show invoice routes'},
         '      invoices GET  /invoices(.:format)          invoices#index\n       invoice GET  /invoices/:id(.:format)      invoices#show')],
        text="Let me look at the invoice model and routes before writing the plan.")
    c.say("Plan:\n1. `GET /invoice_exports/new` form (month, optional customer)\n2. `InvoiceExport` service building the CSV\n"
          "3. `POST /invoice_exports` returns the file\n4. request spec\n\nHow many invoices does the largest customer have? That decides whether I can load a month in one query.")
    f2 = 'heads up the biggest customer has ~40k invoices'
    c.user('F2', f2, lab('user_fact', 'largest customer has about 40k invoices', f2, 'in_summary', 'form:40,000', ['fact'],
                         S('the largest customer has about 40,000 invoices'),
                         values=[{'value': '40k', 'status': 'in_summary', 'found_as': '40,000'}]))
    c.say("Then I'll stream rows with `find_each` rather than loading them all.")
    c.user('C3', 'ya', lab('chatter', 'chatter: ya', 'ya', 'lost', 'omitted', ['chatter']))
    t4 = ('dates as ISO 8601, amounts w 2 decimals and a dot, NOT the german locale format. her excel chokes on the commas '
          'and then everything ends up in one column')
    c.user('T4', t4, lab('instruction', 'CSV: ISO 8601 dates; amounts with 2 decimals and a dot, not the German locale format', t4,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'paraphrase:vocab', 'numeric'],
                         S('Dates must be written in ISO 8601 form and amounts with two decimal places and a full stop as decimal separator, rather than the German locale format, because the accountant\'s spreadsheet mis-parses commas'),
                         values=[{'value': '2 decimals', 'status': 'in_summary', 'found_as': 'two decimal places'}]))
    c.tool('Write', {'file_path': '%s/app/services/invoice_export.rb' % RB, 'content':
                     'require "csv"\n\nclass InvoiceExport\n  HEADER = %w[number issued_on customer net tax total].freeze\n\n'
                     '  def initialize(month:, customer: nil)\n    @month, @customer = month, customer\n  end\n\n'
                     '  def each_row\n    return to_enum(:each_row) unless block_given?\n    yield HEADER\n'
                     '    scope.find_each do |inv|\n      yield [inv.number, inv.issued_on.iso8601, inv.customer.name,\n'
                     '             format("%.2f", inv.net_cents / 100.0), format("%.2f", inv.tax_cents / 100.0), format("%.2f", inv.total_cents / 100.0)]\n'
                     '    end\n  end\n\n  private\n\n  def scope\n    s = Invoice.issued_in(@month).includes(:customer)\n'
                     '    @customer ? s.where(customer: @customer) : s\n  end\nend\n'},
           created('%s/app/services/invoice_export.rb' % RB))
    f5 = 'accountant is m.hartmann@steuer-hartmann.de if we want to email it to her later'
    c.user('F5', f5, lab('user_fact', "accountant's email m.hartmann@steuer-hartmann.de", f5, 'lost', 'omitted', ['fact'],
                         distinct=['steuer-hartmann', 'm.hartmann', 'hartmann'],
                         values=[{'value': 'm.hartmann@steuer-hartmann.de', 'status': 'lost', 'found_as': None}]))
    c.say("Noted for later.")
    t6 = 'generate it in a background job (solid_queue), never inside the request. the big months take forever'
    c.user('T6', t6, lab('instruction', 'generate the export in a background job (solid_queue), never inside the request', t6, 'lost', 'omitted',
                         ['form:omitted', 'after:assistant-topic'],
                         distinct=['solid_queue', 'background job', 'inside the request', 'perform_later', 'activejob', 'active job',
                                   'take forever']))
    c.say("Makes sense.")
    t7 = 'write the request spec first pls, then the impl'
    c.user('T7', t7, lab('instruction', 'write the request spec first, then the implementation', t7, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:ide_wrapped'],
                         A('U7', 'spec first pls, then the impl. like i said before', how='ide_wrapped'),
                         repeated_after=['ide_wrapped']))
    c.tool('Write', {'file_path': '%s/spec/services/invoice_export_spec.rb' % RB, 'content':
                     'require "rails_helper"\n\nRSpec.describe InvoiceExport do\n  it "formats dates as ISO 8601 and amounts with a dot" do\n'
                     '    inv = create(:invoice, issued_on: Date.new(2026, 2, 3), total_cents: 123456)\n'
                     '    rows = described_class.new(month: Date.new(2026, 2, 1)).each_row.to_a\n'
                     '    expect(rows[1]).to include("2026-02-03", "1234.56")\n  end\nend\n'},
           created('%s/spec/services/invoice_export_spec.rb' % RB))
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Through `/plan`, the user requested a CSV export of invoices for the external accountant, producing one file per calendar month and optionally restricted to a single customer',
            'Dates must be written in ISO 8601 form and amounts with two decimal places and a full stop as decimal separator, rather than the German locale format, because the accountant\'s spreadsheet mis-parses commas',
        ],
        'Key Technical Concepts': [
            'Rails, RSpec + FactoryBot; money columns in cents (`monetize :total_cents`)',
            'Scale: the largest customer has about 40,000 invoices → `find_each` in batches, `includes(:customer)`',
            '`Invoice.issued_in(month)` scope (`month.all_month`)',
        ],
        'Files and Code Sections': [
            '`%s/app/services/invoice_export.rb` (new)\n  - `InvoiceExport.new(month:, customer: nil)`, `#each_row` yields the header then one row per invoice' % RB,
            '`%s/spec/services/invoice_export_spec.rb` (new)\n  - checks `2026-02-03` and `1234.56` formatting' % RB,
        ],
        'Errors and fixes': ['None yet.'],
        'Problem Solving': 'Rows are yielded lazily so the CSV can be written without holding a whole month in memory.',
        'All user messages': [
            '/plan: CSV export of invoices for the accountant, one file per month, filterable by customer',
            'Said the biggest customer has roughly 40,000 invoices',
            'Asked for ISO 8601 dates and amounts with two decimals and a dot instead of the German format',
        ],
        'Pending Tasks': ['`InvoiceExportsController` (`new`, `create`) and routes', 'Request spec for the download'],
        'Current Work': 'The service and its spec are written; the controller and routes are next.',
        'Optional Next Step': 'Add `resources :invoice_exports, only: %i[new create]` and the controller.',
    }))
    c.tool('Write', {'file_path': '%s/app/controllers/invoice_exports_controller.rb' % RB, 'content':
                     'class InvoiceExportsController < ApplicationController\n  def new; end\n\n  def create\n'
                     '    month = Date.strptime(params.require(:month), "%Y-%m")\n    customer = Customer.find_by(id: params[:customer_id])\n'
                     '    export = InvoiceExport.new(month:, customer:)\n    csv = CSV.generate { |out| export.each_row { |r| out << r } }\n'
                     '    send_data csv, filename: "invoices-#{month.strftime("%Y-%m")}.csv", type: "text/csv"\n  end\nend\n'},
           created('%s/app/controllers/invoice_exports_controller.rb' % RB),
           text="Adding the controller: the create action builds the CSV from the service and sends it with `send_data`.")
    c.user('U7', [ide_opened('%s/spec/requests/invoice_exports_spec.rb' % RB), text('spec first pls, then the impl. like i said before')],
           after=dict(repeat_of='T7', mode='ide_wrapped'))
    c.say("Sorry, I'll write the request spec before touching the controller further.")
    c.tool('Write', {'file_path': '%s/spec/requests/invoice_exports_spec.rb' % RB, 'content':
                     'require "rails_helper"\n\nRSpec.describe "Invoice exports" do\n  it "returns the month as CSV" do\n'
                     '    create(:invoice, issued_on: Date.new(2026, 2, 3))\n    post invoice_exports_path, params: { month: "2026-02" }\n'
                     '    expect(response.media_type).to eq("text/csv")\n  end\nend\n'},
           created('%s/spec/requests/invoice_exports_spec.rb' % RB))
    return c.write({'situations': ['wrapper:command-args (/plan) with its isMeta expansion', 'fact 40k → 40,000',
                                   'heavy paraphrase (a dot → a full stop, Excel → spreadsheet)', 'fact (accountant e-mail) lost',
                                   'background-job rule lost; the assistant builds the CSV inside the request after the boundary',
                                   'repeat:ide_wrapped paraphrase by the user']})


# --------------------------------------------------------------------------------------------
def q12():
    c = Case('q12-shopfront-ci', 'ci', 'short', seed=4412, pre_tokens=150336, start='2025-12-15T10:25:00')
    t1 = ('ci takes like 25 min now which is killing our review turnaround. get it under 10. cache the pnpm store and split '
          'the e2e job into 4 shards, playwright has --shard for that')
    c.user('T1', t1, lab('instruction', 'CI from ~25 to under 10 min: cache the pnpm store, 4 e2e shards', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'numeric', 'numbers-as-words', 'long-turn'],
                         S('Reduce the CI wall-clock time from roughly twenty-five minutes to below ten, by caching the pnpm store and splitting the end-to-end job into four shards (Playwright `--shard`)'),
                         values=[{'value': '10', 'status': 'in_summary', 'found_as': 'ten'},
                                 {'value': '4', 'status': 'in_summary', 'found_as': 'four shards'}]))
    c.tools([('Bash', {'command': 'ls .github/workflows', 'description': 'List workflows'}, 'ci.yml\ndeploy.yml\nrelease-notes.yml'),
             ('Read', {'file_path': '%s/.github/workflows/ci.yml' % CI}, numbered(
                 'name: CI\non:\n  push:\n  pull_request:\n\njobs:\n  test:\n    runs-on: ubuntu-22.04\n    steps:\n'
                 '      - uses: actions/checkout@v4\n      - uses: pnpm/action-setup@v2\n      - uses: actions/setup-node@v4\n'
                 '        with: { node-version: 20 }\n      - run: pnpm install --frozen-lockfile\n      - run: pnpm test\n'
                 '  e2e:\n    runs-on: ubuntu-22.04\n    steps:\n      - uses: actions/checkout@v4\n      - uses: pnpm/action-setup@v2\n'
                 '      - run: pnpm install --frozen-lockfile\n      - run: pnpm exec playwright install --with-deps\n'
                 '      - run: pnpm exec playwright test'))],
        text="Let me look at the workflows.")
    f2 = 'pnpm 8.15 fwiw'
    c.user('F2', f2, lab('user_fact', 'pnpm 8.15', f2, 'repeated_later', 'omitted', ['fact'],
                         A('U2', "we're on pnpm 8.15", how='paraphrase'),
                         values=[{'value': '8.15', 'status': 'repeated_later', 'found_as': 'pnpm 8.15'}]))
    c.tool('Edit', {'file_path': '%s/.github/workflows/ci.yml' % CI,
                    'old_string': '  e2e:\n    runs-on: ubuntu-22.04\n    steps:',
                    'new_string': '  e2e:\n    runs-on: ubuntu-22.04\n    strategy:\n      fail-fast: false\n      matrix:\n        shard: [1, 2, 3, 4]\n    steps:'},
           edited('%s/.github/workflows/ci.yml' % CI, '  e2e:\n    runs-on: ubuntu-22.04\n    strategy:\n      fail-fast: false\n'
                  '      matrix:\n        shard: [1, 2, 3, 4]\n    steps:', 16),
           text="Adding the shard matrix first.")
    t3 = 'only run e2e on PRs into main btw, not on every push'
    c.user('T3', t3, lab('instruction', 'e2e only on PRs into main, not on every push', t3, 'lost', 'omitted', ['form:omitted'],
                         distinct=['every push', 'into main', 'on push', 'push events', "github.event_name", 'prs into']))
    c.say("OK.")
    c.user('C4', '👍', lab('chatter', 'chatter: 👍', '👍', 'lost', 'omitted', ['chatter']))
    c.rejected('Bash', {'command': 'gh workflow run ci.yml --ref ci-speedup', 'description': 'Trigger CI on the branch'},
               text="Let me trigger a run to get a baseline.")
    t5 = 'pin every action to a full commit sha, security requires it'
    c.user('T5', t5, lab('instruction', 'pin every action to a full commit SHA', t5, 'in_summary', 'verbatim', ['form:verbatim'],
                         S('"pin every action to a full commit sha, security requires it"')))
    c.tool('Bash', {'command': 'for a in actions/checkout@v4 pnpm/action-setup@v2 actions/setup-node@v4 actions/cache@v4; do gh api repos/${a%@*}/commits/${a#*@} --jq .sha; done',
                    'description': 'Resolve action tags to commit SHAs'},
           'b4ffde65f46336ab88eb53be808477a3936bae11\neae0cfeb286e66ffb5155f1a79b90583a127a68b\n'
           '60edb5dd545a775178f52524783378180af0d1f8\n0c45773b623bea8c8e75f6c82b208c3cf94ea4f9')
    t6 = 'dont touch deploy.yml tho, sre owns that one'
    c.user('T6', t6, lab('instruction', 'do not touch deploy.yml (owned by SRE)', t6, 'lost', 'omitted', ['form:omitted', 'after:assistant-topic'],
                         distinct=['deploy.yml', 'sre owns', 'owned by sre', 'site reliability', 'that one']))
    c.say("Understood.")
    t7 = "the flaky checkout.spec.ts test: quarantine it w test.fixme and open an issue, dont try to fix it now"
    c.user('T7', t7, lab('instruction', 'quarantine the flaky checkout.spec.ts with test.fixme, open an issue, no fix now', t7, 'in_summary',
                         'paraphrase', ['form:paraphrase'],
                         S('The flaky `checkout.spec.ts` test is to be quarantined with `test.fixme` and tracked in a new issue, without attempting a fix for now')))
    c.tool('Bash', {'command': 'gh issue create --title "Quarantined: flaky checkout.spec.ts" --label flaky-test --body "Marked test.fixme in ci-speedup; fails ~1 in 6 runs on the payment iframe."',
                    'description': 'Open an issue for the quarantined test'},
           'https://github.com/marco-shop/shopfront/issues/412')
    c.user('C8', 'ty!!', lab('chatter', 'chatter: ty!!', 'ty!!', 'lost', 'omitted', ['chatter']))
    c.compact(summary_short({
        'Primary Request and Intent': [
            'Reduce the CI wall-clock time from roughly twenty-five minutes to below ten, by caching the pnpm store and splitting the end-to-end job into four shards (Playwright `--shard`)',
            'The user: "pin every action to a full commit sha, security requires it"',
            'The flaky `checkout.spec.ts` test is to be quarantined with `test.fixme` and tracked in a new issue, without attempting a fix for now',
        ],
        'Key Technical Concepts': [
            'GitHub Actions matrix `shard: [1, 2, 3, 4]` with `fail-fast: false`',
            'pnpm store caching via `actions/cache` keyed on `pnpm-lock.yaml`',
            'Action pinning: `uses: owner/repo@<40-char sha> # vX`',
        ],
        'Files and Code Sections': [
            '`%s/.github/workflows/ci.yml`\n  - `e2e` job now has the 4-way shard matrix; cache step and SHA pins still to do' % CI,
        ],
        'Problem Solving': [
            'Resolved SHAs: checkout v4 `b4ffde65f46336ab88eb53be808477a3936bae11`, pnpm/action-setup v2 `eae0cfeb286e66ffb5155f1a79b90583a127a68b`, setup-node v4 `60edb5dd545a775178f52524783378180af0d1f8`, cache v4 `0c45773b623bea8c8e75f6c82b208c3cf94ea4f9`',
            'Issue #412 opened for the quarantined test',
        ],
        'Pending Tasks': ['Add `test.fixme` to `checkout.spec.ts`', 'pnpm store cache step', 'Pass `--shard=${{ matrix.shard }}/4` to Playwright', 'Replace tags with SHAs'],
        'Current Work': 'Issue #412 was just created; marking the test as fixme is next.',
        'Optional Next Step': 'Edit `tests/e2e/checkout.spec.ts` to use `test.fixme` with a link to #412.',
    }))
    c.tool('Edit', {'file_path': '%s/tests/e2e/checkout.spec.ts' % CI, 'old_string': "test('completes checkout with a saved card', async ({ page }) => {",
                    'new_string': "// quarantined, see https://github.com/marco-shop/shopfront/issues/412\n"
                                  "test.fixme('completes checkout with a saved card', async ({ page }) => {"},
           edited('%s/tests/e2e/checkout.spec.ts' % CI, "// quarantined, see https://github.com/marco-shop/shopfront/issues/412\n"
                  "test.fixme('completes checkout with a saved card', async ({ page }) => {", 31))
    c.say("Quarantined. Now the cache step and the SHA pins; I'll apply the pins to every workflow under `.github/workflows/` so nothing is left on a tag.")
    c.user('U2', "we're on pnpm 8.15 if the cache key needs the version", after=dict(repeat_of='F2', mode='paraphrase'))
    c.tool('Edit', {'file_path': '%s/.github/workflows/ci.yml' % CI,
                    'old_string': '      - uses: pnpm/action-setup@v2\n      - run: pnpm install --frozen-lockfile\n      - run: pnpm exec playwright install --with-deps',
                    'new_string': '      - uses: pnpm/action-setup@eae0cfeb286e66ffb5155f1a79b90583a127a68b # v2\n        with: { version: 8.15 }\n'
                                  '      - uses: actions/cache@0c45773b623bea8c8e75f6c82b208c3cf94ea4f9 # v4\n'
                                  '        with:\n          path: ~/.local/share/pnpm/store\n'
                                  "          key: pnpm-8.15-${{ hashFiles('pnpm-lock.yaml') }}\n"
                                  '      - run: pnpm install --frozen-lockfile\n      - run: pnpm exec playwright install --with-deps'},
           edited('%s/.github/workflows/ci.yml' % CI, '      - uses: pnpm/action-setup@eae0cfeb286e66ffb5155f1a79b90583a127a68b # v2\n'
                  '        with: { version: 8.15 }\n      - uses: actions/cache@0c45773b623bea8c8e75f6c82b208c3cf94ea4f9 # v4\n'
                  '        with:\n          path: ~/.local/share/pnpm/store\n'
                  "          key: pnpm-8.15-${{ hashFiles('pnpm-lock.yaml') }}", 23),
           text="Good, pinning the pnpm version in the setup step and using it in the cache key.")
    return c.write({'situations': ['long turn with reasons, numbers as words (twenty-five, ten, four)', 'verbatim quote in a short summary',
                                   'rejected tool call + interrupt marker (skipped)', 'two rules silently dropped; the assistant plans to edit every workflow after the boundary',
                                   'fact repeated by the user after the boundary', 'short summary']})


CASES = [q07, q08, q09, q10, q11, q12]
