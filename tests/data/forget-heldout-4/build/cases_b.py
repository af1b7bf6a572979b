"""s07-s12. Every label below is the labeller's judgement, written by hand. Every turn, tool call,
tool result and summary here was written for this set."""
from builder import (Case, lab, S, A, ide_opened, ide_selection, reminder_modified, reminder_todo_empty, text, image, numbered,
                     edited, created, TODO_OK, todos, command, summary_20, summary_21, summary_short)

KA = '/home/kai/fw/lastenrad-bms'
HA = '/home/haruto/nix/studio-server'
AM = '/home/amara/projects/outbreak-dash'
JW = '/Users/jiwoo/code/tabtamer'
KU = '/home/kuba/work/trackpoint-service'
EL = '/Users/elin/blender/addons/terrain_forge'


# --------------------------------------------------------------------------------------------
def s07():
    c = Case('s07-lastenrad-bms-can', 'firmware', '2.1', seed=6407, pre_tokens=167415, start='2025-12-15T18:22:00')
    t1 = ('need CAN telemetry out of the bms: pack voltage, pack current, min/max cell voltage, min/max temp. every 100ms on id 0x3A0, '
          'little endian, the display firmware expects exactly that layout')
    c.user('T1', t1, lab('instruction', 'CAN telemetry frame (pack V/I, min/max cell V, min/max temp) every 100 ms on 0x3A0, little-endian, display layout', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'numeric'],
                         S('every 100 ms under identifier 0x3A0 with little-endian fields in exactly the layout the display firmware expects'),
                         values=[{'value': '100ms', 'status': 'in_summary', 'found_as': '100 ms'},
                                 {'value': '0x3A0', 'status': 'in_summary', 'found_as': '0x3A0'}]))
    c.tools([('Read', {'file_path': '%s/src/main.rs' % KA}, numbered(
        '#![no_std]\n#![no_main]\n\nuse embassy_executor::Spawner;\nuse {defmt_rtt as _, panic_probe as _};\n\nmod tasks;\nmod ntc;\n\n'
        '#[embassy_executor::main]\nasync fn main(spawner: Spawner) {\n    let p = embassy_stm32::init(config());\n'
        '    spawner.spawn(tasks::balance::run(p.ADC1, p.DMA1_CH1)).unwrap();\n}')),
        ('Bash', {'command': 'grep -n "^\\[dependencies\\]" -A 12 Cargo.toml', 'description': 'List firmware dependencies'},
         '14:[dependencies]\n15:embassy-executor = { version = "0.6", features = ["arch-cortex-m", "executor-thread"] }\n'
         '16:embassy-stm32 = { version = "0.1", features = ["stm32g474re", "time-driver-any"] }\n17:embassy-time = "0.3"\n'
         '18:heapless = "0.8"\n19:defmt = "0.3"\n20:defmt-rtt = "0.4"\n21:panic-probe = { version = "0.3", features = ["print-defmt"] }')],
        text="Looking at the entry point and the dependencies.")
    t2 = 'no heap. no alloc crate, heapless only'
    c.user('T2', t2, lab('instruction', 'no heap: no alloc crate, heapless only', t2, 'in_summary', 'paraphrase', ['form:paraphrase'],
                         S('No dynamic allocation: the firmware uses fixed-capacity `heapless` collections exclusively')))
    c.say("Understood. Which board and CAN pins?")
    f3 = 'board: STM32G474RE @ 170 MHz, FDCAN1 on PA11/PA12, 500 kbit/s'
    c.user('F3', f3, lab('user_fact', 'STM32G474RE at 170 MHz; FDCAN1 on PA11/PA12 at 500 kbit/s', f3, 'in_summary', 'form:500 kbps', ['fact', 'numeric'],
                         S('STM32G474RE at 170 MHz, FDCAN1 on PA11/PA12 at 500 kbps'),
                         values=[{'value': 'STM32G474RE', 'status': 'in_summary', 'found_as': 'STM32G474RE'},
                                 {'value': 'PA11/PA12', 'status': 'in_summary', 'found_as': 'PA11/PA12'},
                                 {'value': '500 kbit/s', 'status': 'in_summary', 'found_as': '500 kbps'}]))
    c.tool('Write', {'file_path': '%s/src/tasks/telemetry.rs' % KA, 'content':
                     'use embassy_stm32::can::{Can, Frame, StandardId};\nuse embassy_time::{Duration, Ticker};\n\n'
                     'pub const TELEMETRY_ID: u16 = 0x3A0;\n\npub struct Telemetry { pub pack_mv: u16, pub pack_ma: i16, pub cell_min_mv: u16, pub cell_max_mv: u16 }\n\n'
                     'impl Telemetry {\n    pub fn encode(&self) -> [u8; 8] {\n        let mut b = [0u8; 8];\n'
                     '        b[0..2].copy_from_slice(&self.pack_mv.to_le_bytes());\n        b[2..4].copy_from_slice(&self.pack_ma.to_le_bytes());\n'
                     '        b[4..6].copy_from_slice(&self.cell_min_mv.to_le_bytes());\n        b[6..8].copy_from_slice(&self.cell_max_mv.to_le_bytes());\n        b\n    }\n}\n'},
           created('%s/src/tasks/telemetry.rs' % KA),
           text="First the frame encoder. Temperatures don't fit in the same 8 bytes, so they go in a second frame at 0x3A1 unless the display expects otherwise.")
    c.user('C4', 'sweeeet', lab('chatter', 'chatter: sweeeet', 'sweeeet', 'in_summary', 'verbatim', ['chatter', 'drawn-out'], S('"sweeeet"')))
    t5 = ('never unwrap() or panic!() in the can task. if a frame fails to go out just bump the error counter and carry on. a panic '
          'there resets the MCU and the contactor opens while someone is riding with a kid in the front box')
    c.user('T5', t5, lab('instruction', 'no unwrap/panic in the CAN task; failed frame -> bump error counter and continue (panic opens the contactor mid-ride)', t5,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'negation-moved', 'long-turn'],
                         S('The CAN task must not be able to bring the firmware down: a frame that fails to send only increments an error counter and transmission carries on (a reset would open the contactor under a rider)')))
    c.say("Got it: `try_write` with the result matched, `TX_ERRORS.fetch_add(1)` on error.")
    t6 = 'leave the balancing task alone btw, it was validated on the bench and re-validating costs us a week'
    c.user('T6', [ide_opened('%s/src/tasks/balance.rs' % KA), text(t6)],
           lab('instruction', 'do not modify the balancing task (bench-validated; re-validation costs a week)', t6, 'lost', 'omitted',
               ['form:omitted', 'summary:mentions-without-content', 'wrapper:ide_opened_file', 'after:assistant-topic'],
               distinct=['validated', 'on the bench', 're-validat', 'costs us a week', 'leave the balancing'], wrapper='ide_opened_file'))
    c.say("Noted.")
    t7 = 'use defmt for logging, not rtt-target println'
    c.user('T7', t7, lab('instruction', 'log with defmt, not rtt-target println', t7, 'in_summary', 'verbatim', ['form:verbatim'],
                         S('"use defmt for logging, not rtt-target println"')))
    c.user('C8', 'jo passt', lab('chatter', 'chatter: jo passt', 'jo passt', 'lost', 'omitted', ['chatter', 'language:de']))
    t9 = 'temps: convert with the lookup table in src/ntc.rs, and no float math inside the ISR'
    c.user('T9', t9, lab('instruction', 'temperatures via the lookup table in src/ntc.rs; no float math inside the ISR', t9, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True,
                         lost_part='no floating-point math inside the ISR',
                         distinct=['isr', 'float math', 'floating', 'interrupt handler']))
    c.tool('Read', {'file_path': '%s/src/ntc.rs' % KA}, numbered(
        '/// 10k NTC, B=3435, 12-bit ADC with 10k pull-up; index = adc >> 5\npub const NTC_TABLE_DC: [i16; 128] = [\n    1250, 1108, 1003, 921, 853, 797, 748, 706,'),
        text="Reading the NTC table.")
    t10 = "commit after each working step, message prefix 'bms:'"
    c.user('T10', t10, lab('instruction', "commit after each working step with message prefix 'bms:'", t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'repeat:verbatim'], A('U1', "commit after each working step, message prefix 'bms:'"),
                           repeated_after=['verbatim']))
    f11 = 'if the frame layout is unclear ask the display team, contact is lena.hoffmann@velowerk.de'
    c.user('F11', f11, lab('user_fact', 'display team contact lena.hoffmann@velowerk.de', f11, 'lost', 'omitted', ['fact', 'email'],
                           distinct=['lena', 'hoffmann', 'velowerk'],
                           values=[{'value': 'lena.hoffmann@velowerk.de', 'status': 'lost', 'found_as': None}]))
    c.say("Thanks, I'll note the contact in case the 0x3A1 split needs checking.")
    c.user('C12', 'brb coffee ☕', lab('chatter', 'chatter: brb coffee ☕', 'brb coffee ☕', 'lost', 'omitted', ['chatter', 'emoji']))
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Add CAN telemetry to the cargo-bike BMS firmware: pack voltage, pack current, min/max cell voltage and min/max temperature, sent every 100 ms under identifier 0x3A0 with little-endian fields in exactly the layout the display firmware expects',
            'No dynamic allocation: the firmware uses fixed-capacity `heapless` collections exclusively',
            'The CAN task must not be able to bring the firmware down: a frame that fails to send only increments an error counter and transmission carries on (a reset would open the contactor under a rider)',
            'Temperatures are converted with the lookup table in `src/ntc.rs`',
        ],
        'Key Technical Concepts': ['Embassy on STM32G474RE at 170 MHz, FDCAN1 on PA11/PA12 at 500 kbps', 'defmt for logs', '`embassy_time::Ticker` for the 100 ms period',
                                   '`AtomicU32` error counter'],
        'Files and Code Sections': [
            '`%s/src/tasks/telemetry.rs` (new): `TELEMETRY_ID = 0x3A0`, `Telemetry::encode()` packs four little-endian u16/i16 fields; temperatures planned for a second frame at 0x3A1' % KA,
            '`%s/src/ntc.rs`: `NTC_TABLE_DC` (128 entries, deci-°C, index = adc >> 5)' % KA,
            '`%s/src/tasks/balance.rs`: existing balancing task' % KA,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'Eight data bytes are not enough for all six values, hence the proposed second frame.',
        'All user messages': [
            'Asked for CAN telemetry from the BMS: pack voltage and current, min/max cell voltage, min/max temperature, every 100 ms on 0x3A0, little-endian, in the layout the display expects',
            'No heap: nothing from `alloc`, heapless only',
            'Gave the board: STM32G474RE at 170 MHz, FDCAN1 on PA11/PA12, 500 kbps',
            '"sweeeet"',
            'The CAN task must never take the firmware down; failed frames only bump an error counter (a reset opens the contactor while riding)',
            'Opened `src/tasks/balance.rs` and commented on it',
            '"use defmt for logging, not rtt-target println"',
            'Temperatures are converted with the lookup table in `src/ntc.rs`',
        ],
        'Pending Tasks': ['Telemetry task with the 100 ms ticker', 'Temperature frame at 0x3A1', 'Error counter and its defmt report', 'Share measurements with the telemetry task'],
        'Current Work': 'Encoder written, NTC table read; next is getting the measurements to the telemetry task.',
        'Optional Next Step': 'Publish the latest cell voltages from the measurement side and consume them in `telemetry::run`.',
    }))
    c.tool('Edit', {'file_path': '%s/src/tasks/balance.rs' % KA, 'old_string': '        let cells = measure_cells(&mut adc).await;\n',
                    'new_string': '        let cells = measure_cells(&mut adc).await;\n        crate::tasks::telemetry::CELLS.signal(cells.clone());\n'},
           edited('%s/src/tasks/balance.rs' % KA, '        let cells = measure_cells(&mut adc).await;\n        crate::tasks::telemetry::CELLS.signal(cells.clone());', 57),
           text="The telemetry task needs the latest cell voltages; the balancing task measures them anyway, so it publishes each cycle into a `Signal`.")
    c.tool('Write', {'file_path': '%s/src/tasks/temp_adc.rs' % KA, 'content':
                     'use core::sync::atomic::{AtomicI16, Ordering};\nuse embassy_stm32::interrupt;\n\npub static T_MAX_DC: AtomicI16 = AtomicI16::new(0);\n\n'
                     '#[interrupt]\nfn ADC2() {\n    let raw = read_injected();\n'
                     '    let t = crate::ntc::NTC_TABLE_DC[(raw >> 5) as usize] as f32 * 0.1 + CAL_OFFSET_C;\n'
                     '    T_MAX_DC.fetch_max((t * 10.0) as i16, Ordering::Relaxed);\n}\n'},
           created('%s/src/tasks/temp_adc.rs' % KA),
           text="Temperatures: the ADC2 end-of-conversion handler looks the value up in `NTC_TABLE_DC`, applies the calibration offset in °C and keeps the maximum.")
    c.tool('Bash', {'command': 'cargo build --release 2>&1 | tail -1 && git add -A && git commit -qm "add telemetry frame encoder" && git log -1 --oneline',
                    'description': 'Build and commit'},
           '    Finished `release` profile [optimized + debuginfo] target(s) in 7.42s\nb71e0c4 add telemetry frame encoder')
    c.user('U1', "commit after each working step, message prefix 'bms:'", after=dict(repeat_of='T10', mode='verbatim'))
    c.tool('Bash', {'command': 'git commit --amend -qm "bms: add telemetry frame encoder" && git log -1 --oneline', 'description': 'Fix the commit message'},
           '4e20a9d bms: add telemetry frame encoder', text="Fixing the message.")
    return c.write({'situations': ['request paraphrased with values (100ms -> 100 ms, 0x3A0)', 'no-heap rule paraphrased (heapless collections exclusively)',
                                   'fact with three values (500 kbit/s -> 500 kbps)', 'drawn-out chatter quoted ("sweeeet")',
                                   'long turn with the reason, negation moved (never unwrap/panic -> must not be able to bring the firmware down)',
                                   'wrapper:ide_opened_file rule lost: the list only says the user opened balance.rs and commented on it; the assistant edits the balancing task after the boundary',
                                   'instruction quoted verbatim', 'partial (lookup table kept, no float math in the ISR dropped); the assistant writes float math in an interrupt after the boundary',
                                   'commit rule omitted, repeated verbatim by the user after the boundary', 'contact e-mail fact lost',
                                   'chatter omitted (German slang, emoji)'],
                    'notes': 'T6: the summary lists balance.rs under Files ("existing balancing task") and says the user "commented on it"; neither says to leave it alone, so the turn is lost.'})


# --------------------------------------------------------------------------------------------
def s08():
    c = Case('s08-studio-nixos-samba', 'nixos', '2.0', seed=6408, pre_tokens=154902, start='2026-02-03T11:47:00', version='2.0.64')
    t1 = '事務所のサーバーにSambaの共有フォルダを作りたいです。「デザイン」と「経理」の2つで、経理は山田さんと私だけがアクセスできるようにしてください。'
    c.user('T1', t1, lab('instruction', 'two Samba shares (design, accounting); accounting only for Yamada-san and the user', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:ja', 'translated'],
                         S('two Samba shares on the office server, `design` and `accounting`, with the accounting share restricted to Yamada-san and the user')))
    c.tools([('Read', {'file_path': '%s/flake.nix' % HA}, numbered(
        '{\n  inputs = {\n    nixpkgs.url = "github:NixOS/nixpkgs/nixos-24.05";\n    sops-nix.url = "github:Mic92/sops-nix";\n  };\n'
        '  outputs = { self, nixpkgs, sops-nix, ... }: {\n    nixosConfigurations.studio = nixpkgs.lib.nixosSystem {\n      system = "x86_64-linux";\n'
        '      modules = [ ./hosts/studio/configuration.nix sops-nix.nixosModules.sops ];\n    };\n  };\n}')),
        ('Bash', {'command': 'ls hosts/studio/', 'description': 'List host modules'}, 'configuration.nix\nhardware-configuration.nix\nusers.nix')],
        text="flake とホスト設定を確認します。")
    t2 = 'secrets は sops-nix で管理して。平文のパスワードは絶対に nix store に入れないで'
    c.user('T2', t2, lab('instruction', 'secrets via sops-nix; never put plaintext passwords in the Nix store', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:mixed', 'translated', 'negation-moved'],
                         S('Secrets are handled with sops-nix so that the Nix store only ever sees encrypted secrets')))
    c.tool('Write', {'file_path': '%s/hosts/studio/samba.nix' % HA, 'content':
                     '{ config, ... }:\n{\n  services.samba = {\n    enable = true;\n    shares = {\n      design = { path = "/srv/share/design"; "valid users" = "@studio"; };\n'
                     '      accounting = { path = "/srv/share/accounting"; "valid users" = "haruto yamada"; };\n    };\n  };\n'
                     '  sops.secrets."samba/yamada" = { };\n}\n'},
           created('%s/hosts/studio/samba.nix' % HA), text="Samba モジュールを作成します。パスワードは sops の secret から。")
    c.user('C3', 'ありがとうございます！', lab('chatter', 'chatter: ありがとうございます！', 'ありがとうございます！', 'in_summary', 'paraphrase',
                                       ['chatter', 'form:paraphrase', 'language:ja'], S('Thanks (in Japanese)')))
    f4 = 'サーバーのIPは 192.168.10.5 です'
    c.user('F4', f4, lab('user_fact', 'server IP 192.168.10.5', f4, 'in_summary', 'form:192.168.10.5', ['fact', 'language:ja'], S('192.168.10.5'),
                         values=[{'value': '192.168.10.5', 'status': 'in_summary', 'found_as': '192.168.10.5'}]))
    t5 = 'バックアップは restic で毎晩2時に B2 へ。保持は 7日・4週・12ヶ月 でお願いします'
    c.user('T5', t5, lab('instruction', 'nightly restic backup at 2:00 to B2; retention 7 daily / 4 weekly / 12 monthly', t5, 'lost', 'partial',
                         ['form:partial', 'partial', 'language:ja', 'numeric'], partial=True,
                         lost_part='retention 7 days / 4 weeks / 12 months',
                         distinct=['保持', 'retention', '12ヶ月', 'monthly', 'weekly', '4週', 'keep-'],
                         values=[{'value': '2時', 'status': 'in_summary', 'found_as': '02:00'},
                                 {'value': '7日・4週・12ヶ月', 'status': 'lost', 'found_as': None}]))
    c.say("了解です。`services.restic.backups.studio` で設定します。")
    t6 = "pin nixpkgs to nixos-24.05 and dont bump flake.lock unless I say so"
    c.user('T6', t6, lab('instruction', 'nixpkgs pinned to nixos-24.05; never update flake.lock without being told', t6, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:paraphrase', 'language:ja'],
                         A('U1', 'flake.lock は更新しないでね'), repeated_after=['paraphrase']))
    c.user('C7', 'おk', lab('chatter', 'chatter: おk', 'おk', 'lost', 'omitted', ['chatter', 'language:ja']))
    t8 = 'ファイアウォール：445番はLANからだけ。外には絶対開けないこと'
    c.user('T8', t8, lab('instruction', 'firewall: port 445 only from the LAN, never opened to the outside', t8, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:ja', 'translated', 'negation-moved'],
                         S('SMB (port 445) is reachable only from the LAN interface `enp3s0`'),
                         values=[{'value': '445', 'status': 'in_summary', 'found_as': '445'}]))
    c.tool('Edit', {'file_path': '%s/hosts/studio/configuration.nix' % HA, 'old_string': '  networking.firewall.enable = true;\n',
                    'new_string': '  networking.firewall.enable = true;\n  networking.firewall.interfaces.enp3s0.allowedTCPPorts = [ 445 ];\n'},
           edited('%s/hosts/studio/configuration.nix' % HA, '  networking.firewall.enable = true;\n  networking.firewall.interfaces.enp3s0.allowedTCPPorts = [ 445 ];', 22))
    t9 = 'nixos-rebuild switch は私がやるので、あなたは build までにしてください'
    c.user('T9', t9, lab('instruction', 'assistant stops at nixos-rebuild build; the user runs switch', t9, 'in_summary', 'verbatim',
                         ['form:verbatim', 'language:ja'], S('"nixos-rebuild switch は私がやるので、あなたは build までにしてください"')))
    f10 = 'B2 のバケット名は studio-kumo-backup です'
    c.user('F10', f10, lab('user_fact', 'B2 bucket name studio-kumo-backup', f10, 'lost', 'omitted', ['fact', 'language:ja', 'after:assistant-topic'],
                           distinct=['studio-kumo', 'kumo-backup', 'バケット'],
                           values=[{'value': 'studio-kumo-backup', 'status': 'lost', 'found_as': None}]))
    t11 = 'ログは journald だけにして、ファイルには書かないで'
    c.user('T11', t11, lab('instruction', 'logs to journald only, no log files', t11, 'lost', 'omitted',
                           ['form:omitted', 'summary:mentions-without-content', 'language:ja', 'after:assistant-topic'],
                           distinct=['journald', 'ファイルには', 'ログ']))
    c.say("承知しました。")
    c.user('C12', 'よろしくお願いします 🙏', lab('chatter', 'chatter: よろしくお願いします 🙏', 'よろしくお願いします 🙏', 'in_summary', 'verbatim',
                                          ['chatter', 'language:ja', 'emoji'], S('"よろしくお願いします 🙏"')))
    c.compact(summary_20(
        """Chronological review:

1. The user (writing in Japanese) asked for two Samba shares on the office NixOS server with restricted access to the accounting one.
2. I read `flake.nix` (nixpkgs nixos-24.05, sops-nix input) and the host modules. The user asked for secrets through sops-nix; I wrote `hosts/studio/samba.nix`.
3. The user thanked me and gave the server IP, then asked for nightly restic backups to B2.
4. The user set the firewall rule for port 445 and said they run `switch` themselves; I opened 445 on `enp3s0` only.
5. The user added a note on logging and closed with a polite request to proceed.""",
        {
            'Primary Request and Intent': [
                'Create two Samba shares on the office server, `design` and `accounting`, with the accounting share restricted to Yamada-san and the user',
                'Secrets are handled with sops-nix so that the Nix store only ever sees encrypted secrets',
                'Nightly restic backup at 02:00 to Backblaze B2',
                'SMB (port 445) is reachable only from the LAN interface `enp3s0`',
                'The assistant stops at `nixos-rebuild build`; the user runs `switch` personally',
            ],
            'Key Technical Concepts': ['NixOS flake, host `studio`, nixpkgs `nixos-24.05`', 'sops-nix secrets (`sops.secrets."samba/yamada"`)',
                                       '`services.samba.shares`, `valid users`', '`services.restic.backups`', 'Server address 192.168.10.5'],
            'Files and Code Sections': [
                '`%s/hosts/studio/samba.nix` (new): shares `design` (`@studio`) and `accounting` (`haruto yamada`)' % HA,
                '`%s/hosts/studio/configuration.nix`: `networking.firewall.interfaces.enp3s0.allowedTCPPorts = [ 445 ]`' % HA,
                '`%s/flake.nix`: inputs nixpkgs and sops-nix' % HA,
            ],
            'Errors and fixes': ['None.'],
            'Problem Solving': 'Access to `accounting` is limited with `valid users`; the Samba passwords come from sops secrets at activation time.',
            'All user messages': [
                'Asked (in Japanese) for two Samba shares on the office server, design and accounting; accounting only for Yamada-san and the user',
                'Secrets through sops-nix; the Nix store only ever sees encrypted secrets',
                'Thanks (in Japanese)',
                'Server IP is 192.168.10.5',
                'Nightly restic backup at 02:00 to B2',
                'Port 445 only from the LAN',
                '"nixos-rebuild switch は私がやるので、あなたは build までにしてください"',
                'Added a note on logging',
                '"よろしくお願いします 🙏"',
            ],
            'Pending Tasks': ['restic backup module', 'sops secrets file for the B2 credentials', 'Import `samba.nix` and the backup module', '`nixos-rebuild build --flake .#studio`'],
            'Current Work': 'Samba module and firewall rule are written; the backup module is next.',
            'Optional Next Step': 'Write `hosts/studio/backup.nix` with `services.restic.backups`.',
        }))
    c.say("sops-nix's Samba password helper needs a newer revision than the one in the lock file, so I'll run `nix flake update` first and then add the backup module.")
    c.user('U1', 'flake.lock は更新しないでね。nixpkgs も 24.05 のままで', after=dict(repeat_of='T6', mode='paraphrase'))
    c.tool('Write', {'file_path': '%s/hosts/studio/backup.nix' % HA, 'content':
                     '{ config, ... }:\n{\n  sops.secrets."restic/b2-env" = { };\n  sops.secrets."restic/password" = { };\n\n  services.restic.backups.studio = {\n'
                     '    paths = [ "/srv/share" ];\n    repository = "b2:CHANGE-ME:/studio-server";\n'
                     '    environmentFile = config.sops.secrets."restic/b2-env".path;\n    passwordFile = config.sops.secrets."restic/password".path;\n'
                     '    timerConfig = { OnCalendar = "02:00"; Persistent = true; };\n  };\n}\n'},
           created('%s/hosts/studio/backup.nix' % HA), text="了解、lock はそのままにします。The backup module uses the inputs we already have.")
    c.tool('Edit', {'file_path': '%s/hosts/studio/samba.nix' % HA, 'old_string': '    enable = true;\n',
                    'new_string': '    enable = true;\n    extraConfig = \'\'\n      log file = /var/log/samba/log.%m\n      max log size = 1000\n    \'\';\n'},
           edited('%s/hosts/studio/samba.nix' % HA, '    enable = true;\n    extraConfig = \'\'\n      log file = /var/log/samba/log.%m', 3),
           text="Giving Samba per-client log files so access problems are easy to trace.")
    c.say("Both modules are in. Next: `nixos-rebuild build --flake .#studio`.")
    return c.write({'situations': ['Japanese request restated in English', 'mixed Japanese/English negation moved (絶対に nix store に入れないで -> the store only ever sees encrypted secrets)',
                                   'Japanese thanks described ("Thanks (in Japanese)")', 'IP fact kept',
                                   'partial (nightly restic at 02:00 to B2 kept, retention 7/4/12 dropped); 2時 -> 02:00',
                                   'English flake.lock rule omitted, paraphrased in Japanese by the user after the boundary',
                                   'Japanese net-slang chatter omitted', 'negation moved (外には絶対開けない -> reachable only from the LAN)',
                                   'Japanese instruction quoted verbatim in the user-message list',
                                   'bucket-name fact lost; the assistant writes a CHANGE-ME placeholder after the boundary',
                                   'logging rule lost: "Added a note on logging"; the assistant adds Samba log files after the boundary'],
                    'notes': 'T9 is quoted verbatim (in Japanese) in the user-message list and also paraphrased in English under Primary Request; labelled verbatim with the Japanese quote as evidence. T5: the values are split (02:00 kept, retention lost).'})


# --------------------------------------------------------------------------------------------
def s09():
    c = Case('s09-outbreak-dash-epicurve', 'shiny', '2.1', seed=6409, pre_tokens=160117, start='2026-03-09T08:55:00', version='2.1.92')
    t1 = 'epi curve tab: weekly case counts by ISO week of symptom onset, stacked by case status (confirmed / probable)'
    c.user('T1', command('feature', t1),
           lab('instruction', 'epi curve tab: weekly counts by ISO week of symptom onset, stacked confirmed/probable', t1, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:command-args'],
               S('an epidemic-curve tab showing weekly case counts by ISO week of symptom onset, with confirmed and probable cases stacked'),
               wrapper='command-args'))
    c.user(None, [text('Implement the feature described below. Read the relevant modules first, keep changes small, and add tests.\n\nARGUMENTS: ' + t1)],
           meta=True, wait=(1, 2))
    c.tools([('Read', {'file_path': '%s/R/app_ui.R' % AM}, numbered(
        'app_ui <- function(request) {\n  navbarPage(\n    "Notifiable diseases",\n    tabPanel("Overview", mod_overview_ui("overview")),\n'
        '    tabPanel("Map", mod_map_ui("map"))\n  )\n}')),
        ('Read', {'file_path': '%s/R/data_notifications.R' % AM}, numbered(
            'load_notifications <- function(con) {\n  DBI::dbGetQuery(con, "SELECT * FROM surv.v_notifications_weekly")\n}'))],
        text="Reading the UI and the data loader.")
    t2 = "small-number suppression: any count under 5 shows as '<5', and it has to happen in the data layer before anything reaches the UI or the download"
    c.user('T2', t2, lab('instruction', "counts under 5 shown as '<5', suppressed in the data layer before UI and download", t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'numbers-as-words'],
                         S('counts below five are replaced with "<5" in the data layer, before they reach the plot, the table or the CSV download'),
                         values=[{'value': 'under 5', 'status': 'in_summary', 'found_as': 'below five'}]))
    c.tool('Write', {'file_path': '%s/R/suppress.R' % AM, 'content':
                     'suppress_small <- function(df, col = "n", threshold = 5L) {\n'
                     '  df[[paste0(col, "_display")]] <- ifelse(df[[col]] < threshold, "<5", as.character(df[[col]]))\n'
                     '  df[[col]][df[[col]] < threshold] <- NA_integer_\n  df\n}\n'},
           created('%s/R/suppress.R' % AM), text="A `suppress_small()` helper applied right after loading.")
    c.user('C3', 'perfect ty', lab('chatter', 'chatter: perfect ty', 'perfect ty', 'in_summary', 'verbatim', ['chatter'], S('"perfect ty"')))
    f4 = 'source is the view surv.v_notifications_weekly on the reporting replica'
    c.user('F4', f4, lab('user_fact', 'source view surv.v_notifications_weekly (reporting replica)', f4, 'in_summary', 'form:surv.v_notifications_weekly',
                         ['fact'], S('`surv.v_notifications_weekly` on the reporting replica'),
                         values=[{'value': 'surv.v_notifications_weekly', 'status': 'in_summary', 'found_as': 'surv.v_notifications_weekly'}]))
    t5 = 'we use renv, run renv::snapshot() after u add any pakage'
    c.user('T5', t5, lab('instruction', 'renv: run renv::snapshot() after adding any package', t5, 'in_summary', 'typos_fixed',
                         ['form:typos_fixed'], S('"we use renv, run renv::snapshot() after you add any package"')))
    t6 = 'no plotly. ggplot2 + ggiraph for the hover tooltips, plotly failed our accessibility audit last year'
    c.user('T6', t6, lab('instruction', 'no plotly; ggplot2 + ggiraph for hover tooltips (plotly failed the accessibility audit)', t6, 'lost', 'omitted',
                         ['form:omitted', 'after:assistant-topic'],
                         distinct=['ggiraph', 'accessibility audit', 'audit', 'hover tooltip']))
    c.say("OK.")
    sel = '    mutate(\n      week = lubridate::week(onset_date),\n      year = lubridate::year(onset_date)\n    )'
    t7 = 'lubridate::week() is not the ISO week. use isoweek() and isoyear(), otherwise late-december onsets land in the wrong year'
    c.user('T7', [ide_selection('%s/R/mod_epicurve.R' % AM, 14, 17, sel), text(t7)],
           lab('instruction', 'use isoweek()/isoyear() instead of lubridate::week() so late-December onsets get the right year', t7, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_selection'],
               S('Weeks are computed with `lubridate::isoweek()` and `isoyear()` instead of `lubridate::week()`, so onsets at the end of December are attributed to the correct year'),
               wrapper='ide_selection'))
    c.tool('Edit', {'file_path': '%s/R/mod_epicurve.R' % AM, 'old_string': sel,
                    'new_string': '    mutate(\n      iso_week = lubridate::isoweek(onset_date),\n      iso_year = lubridate::isoyear(onset_date)\n    )'},
           edited('%s/R/mod_epicurve.R' % AM, '    mutate(\n      iso_week = lubridate::isoweek(onset_date),\n      iso_year = lubridate::isoyear(onset_date)\n    )', 14))
    c.user('C8', 'yesss thats it', lab('chatter', 'chatter: yesss thats it', 'yesss thats it', 'lost', 'omitted', ['chatter', 'drawn-out']))
    t9 = 'colours from the authority palette in R/palette.R: confirmed = navy, probable = the light teal'
    c.user('T9', t9, lab('instruction', 'colours from R/palette.R: confirmed navy, probable light teal', t9, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True, lost_part='confirmed = navy, probable = light teal',
                         distinct=['navy', 'teal']))
    f10 = 'the board meets march 17, the tab needs to be live before that'
    c.user('F10', f10, lab('user_fact', 'board meets March 17; tab live before then', f10, 'in_summary', 'form:17 March', ['fact', 'date'],
                           S('The board meets on 17 March'), values=[{'value': 'march 17', 'status': 'in_summary', 'found_as': '17 March'}]))
    t11 = 'and dont add columns to the csv download, the regional teams have excel macros that break when the columns change'
    c.user('T11', t11, lab('instruction', 'do not add columns to the CSV download (regional Excel macros break)', t11, 'lost', 'omitted',
                           ['form:omitted', 'summary:mentions-without-content', 'after:assistant-topic'],
                           distinct=['macro', 'excel', 'regional teams', 'columns change', 'add columns']))
    c.say("Understood.")
    t12 = 'tests: testthat for the suppression function, shinytest2 for the module'
    c.user('T12', t12, lab('instruction', 'tests: testthat for the suppression function, shinytest2 for the module', t12, 'repeated_later', 'omitted',
                           ['form:omitted', 'repeat:in_tool_result'],
                           A('R1', 'testthat tests for suppress_small(), shinytest2 snapshot for mod_epicurve'), repeated_after=['in_tool_result']))
    c.user('C13', '🙌', lab('chatter', 'chatter: 🙌', '🙌', 'in_summary', 'paraphrase', ['chatter', 'form:paraphrase', 'emoji'], S('Raised-hands emoji')))
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Via the `/feature` command: add an epidemic-curve tab showing weekly case counts by ISO week of symptom onset, with confirmed and probable cases stacked',
            'Small-number suppression: counts below five are replaced with "<5" in the data layer, before they reach the plot, the table or the CSV download',
            'Weeks are computed with `lubridate::isoweek()` and `isoyear()` instead of `lubridate::week()`, so onsets at the end of December are attributed to the correct year',
            'Colours come from the health authority palette in `R/palette.R`',
            'The board meets on 17 March; the tab must be live before then',
        ],
        'Key Technical Concepts': ['Shiny modules (`mod_*_ui` / `mod_*_server`), `navbarPage`', 'Data from `surv.v_notifications_weekly` on the reporting replica',
                                   'renv for package management', '`suppress_small()` keeps the numeric column NA and a `*_display` text column'],
        'Files and Code Sections': [
            '`%s/R/suppress.R` (new): `suppress_small(df, col = "n", threshold = 5L)`' % AM,
            '`%s/R/mod_epicurve.R`: `iso_week` / `iso_year` via lubridate' % AM,
            '`%s/R/data_notifications.R`: `load_notifications(con)`' % AM,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'Suppressed cells are NA in the numeric column so stacked bars leave a gap instead of drawing a wrong height.',
        'All user messages': [
            '/feature: epi curve tab, weekly counts by ISO week of symptom onset, stacked confirmed/probable',
            'Small-number suppression: counts below five become "<5" in the data layer before reaching the UI or the download',
            '"perfect ty"',
            'Source is `surv.v_notifications_weekly` on the reporting replica',
            '"we use renv, run renv::snapshot() after you add any package"',
            'Selected the week computation: use `isoweek()`/`isoyear()` instead of `lubridate::week()` so late-December onsets get the right year',
            'Colours from `R/palette.R`',
            'The board meets on 17 March; the tab must be live before then',
            'A request about the CSV download',
            'Raised-hands emoji',
        ],
        'Pending Tasks': ['Plot for the epi curve', 'Register the tab in `app_ui.R`', 'CSV download for the tab', 'Tests'],
        'Current Work': 'Suppression helper and ISO week computation are done; the plot is next.',
        'Optional Next Step': 'Write the plot in `mod_epicurve_server()`.',
    }))
    c.tool('Read', {'file_path': '%s/TODO.md' % AM}, numbered(
        '# TODO (March board)\n\n- [x] map: region boundaries 2025\n- [ ] epicurve: testthat tests for suppress_small(), shinytest2 snapshot for mod_epicurve\n'
        '- [ ] overview: last-updated timestamp'),
        text="Checking the TODO list before the plot.", anchor='R1')
    c.tool('Edit', {'file_path': '%s/R/mod_epicurve.R' % AM, 'old_string': '  output$curve <- NULL\n',
                    'new_string': '  output$curve <- plotly::renderPlotly({\n    p <- ggplot(curve_data(), aes(iso_week, n, fill = status)) +\n'
                                  '      geom_col() +\n      scale_fill_manual(values = c(confirmed = pal[["red"]], probable = pal[["grey"]]))\n'
                                  '    plotly::ggplotly(p)\n  })\n'},
           edited('%s/R/mod_epicurve.R' % AM, '  output$curve <- plotly::renderPlotly({\n    p <- ggplot(curve_data(), aes(iso_week, n, fill = status)) +', 31),
           text="The plot: stacked columns per ISO week with the palette colours, made interactive with `ggplotly` so counts show on hover.")
    c.tool('Edit', {'file_path': '%s/R/download.R' % AM, 'old_string': '  out <- df[, c("region", "disease", "week", "n_display")]\n',
                    'new_string': '  out <- df[, c("region", "disease", "iso_year", "iso_week", "status", "n_display")]\n'},
           edited('%s/R/download.R' % AM, '  out <- df[, c("region", "disease", "iso_year", "iso_week", "status", "n_display")]', 9),
           text="The export now also carries `iso_year` and `status` so the file matches the curve.")
    c.say("Plot and download are wired. Next: register the tab in `app_ui.R`, then the tests from the TODO.")
    return c.write({'situations': ['wrapper:command-args (/feature) with its isMeta expansion, paraphrased', 'suppression rule paraphrased (under 5 -> below five)',
                                   'chatter quoted', 'fact kept', 'instruction with typos quoted with the typos fixed',
                                   'plotly rule silently dropped from the summary and its user-message list; the assistant uses ggplotly after the boundary',
                                   'wrapper:ide_selection request paraphrased', 'drawn-out chatter omitted',
                                   'partial (palette file kept, navy/teal mapping dropped); the assistant maps other colours after the boundary',
                                   'date fact march 17 -> 17 March',
                                   'CSV-columns rule lost: the list says only "a request about the CSV download"; the assistant adds columns after the boundary',
                                   'test rule omitted, recorded in TODO.md which the agent reads after the boundary (in_tool_result)',
                                   'emoji chatter described ("Raised-hands emoji")']})


# --------------------------------------------------------------------------------------------
def s10():
    c = Case('s10-tabtamer-autogroup', 'extension', 'short', seed=6410, pre_tokens=141566, start='2025-11-10T22:08:00')
    t1 = ('auto-group tabs by domain once there are 3+ tabs from the same site. use chrome.tabGroups and pick the group color from a '
          'hash of the domain so it stays stable across restarts')
    c.user('T1', t1, lab('instruction', 'auto-group tabs by domain at 3+ tabs; chrome.tabGroups; group colour from a hash of the domain (stable)', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'numbers-as-words'],
                         S('as soon as three or more tabs belong to the same site they are collected into a `chrome.tabGroups` group whose colour is derived from a hash of the domain, so it is the same after every restart'),
                         values=[{'value': '3+', 'status': 'in_summary', 'found_as': 'three or more'}]))
    c.tools([('Read', {'file_path': '%s/manifest.json' % JW}, numbered(
        '{\n  "manifest_version": 3,\n  "name": "TabTamer",\n  "version": "0.3.0",\n  "action": { "default_popup": "popup.html" },\n'
        '  "background": { "service_worker": "dist/background.js", "type": "module" },\n  "permissions": ["tabs"]\n}')),
        ('Glob', {'pattern': 'src/**/*.ts'}, '%s/src/background.ts\n%s/src/popup.ts\n%s/src/domain.ts' % (JW, JW, JW))],
        text="Looking at the manifest and sources.")
    t2 = 'manifest v3 only, service worker background'
    c.user('T2', t2, lab('instruction', 'Manifest V3 only, service-worker background', t2, 'in_summary', 'paraphrase', ['form:paraphrase'],
                         S('Manifest V3 with a service-worker background script')))
    c.user('C3', 'lets gooo 🚀', lab('chatter', 'chatter: lets gooo 🚀', 'lets gooo 🚀', 'lost', 'omitted', ['chatter', 'drawn-out', 'emoji']))
    t4 = ('permissions: tabs and tabGroups, nothing else. do NOT add <all_urls> or any host permissions, the web store review bounced '
          'us for that last time')
    c.user('T4', t4, lab('instruction', 'permissions only tabs + tabGroups; no <all_urls> or host permissions (store review rejected it)', t4,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'negation-moved'],
                         S('The manifest requests exactly `tabs` and `tabGroups`; host access of any kind is left out because store review rejected an earlier version over it')))
    c.tool('Edit', {'file_path': '%s/manifest.json' % JW, 'old_string': '"permissions": ["tabs"]', 'new_string': '"permissions": ["tabs", "tabGroups"]'},
           edited('%s/manifest.json' % JW, '  "permissions": ["tabs", "tabGroups"]', 7))
    t5 = 'the service worker gets killed after 30s idle, so keep state in chrome.storage.session, not in module-level variables'
    c.user('T5', t5, lab('instruction', 'keep state in chrome.storage.session, not module-level variables (worker is killed after 30 s idle)', t5,
                         'lost', 'omitted', ['form:omitted', 'after:assistant-topic'],
                         distinct=['storage.session', 'module-level', '30s idle', 'killed']))
    c.say("Right.")
    f6 = 'the web store item id is kcjdnpemgbhaflhoiaobmcjeldkgpfna'
    c.user('F6', f6, lab('user_fact', 'Chrome Web Store item id kcjdnpemgbhaflhoiaobmcjeldkgpfna', f6, 'lost', 'omitted', ['fact'],
                         distinct=['kcjdnpem', 'item id'],
                         values=[{'value': 'kcjdnpemgbhaflhoiaobmcjeldkgpfna', 'status': 'lost', 'found_as': None}]))
    t7 = 'skip pinned tabs and incognito windows'
    c.user('T7', t7, lab('instruction', 'never group pinned tabs or incognito windows', t7, 'in_summary', 'paraphrase', ['form:paraphrase'],
                         S('Pinned tabs and incognito windows are never touched by the grouping')))
    c.tool('Write', {'file_path': '%s/src/domain.ts' % JW, 'content':
                     "const COLORS: chrome.tabGroups.ColorEnum[] = ['grey', 'blue', 'red', 'yellow', 'green', 'pink', 'purple', 'cyan', 'orange'];\n\n"
                     "export function colorFor(domain: string): chrome.tabGroups.ColorEnum {\n  let h = 0;\n"
                     "  for (const ch of domain) h = (h * 31 + ch.charCodeAt(0)) >>> 0;\n  return COLORS[h % COLORS.length];\n}\n"},
           created('%s/src/domain.ts' % JW), text="Stable colour from a 31-hash of the domain.")
    c.user('C8', 'damn that was fast', lab('chatter', 'chatter: damn that was fast', 'damn that was fast', 'lost', 'omitted', ['chatter']))
    t9 = 'tests with vitest and the chrome mock in test/chromeMock.ts. dont add jest-chrome or sinon-chrome'
    c.user('T9', t9, lab('instruction', 'tests with vitest + test/chromeMock.ts; no jest-chrome / sinon-chrome', t9, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:ide_wrapped', 'repeat:paraphrase'],
                         A('U1', 'write the tests with vitest against this mock pls, no jest-chrome / sinon-chrome'), repeated_after=['ide_wrapped', 'paraphrase']))
    c.say("Okay.")
    t10 = '[Image #1] popup roughly like this: a per-window toggle to turn auto-grouping off and an "ungroup all" button. keep the popup under 300px wide'
    c.user('T10', [image((240, 240, 250)), text(t10)],
           lab('instruction', 'popup per mockup: per-window auto-group toggle + "ungroup all" button; popup under 300px wide', t10, 'lost', 'partial',
               ['form:partial', 'partial', 'image', 'after:assistant-topic'], partial=True, lost_part='popup under 300px wide',
               distinct=['300px', '300 px', 'px wide', 'under 300']))
    c.say("I'll build the popup after the background logic.")
    c.user('C11', 'thx!!', lab('chatter', 'chatter: thx!!', 'thx!!', 'lost', 'omitted', ['chatter']))
    c.compact(summary_short({
        'Primary Request and Intent': [
            'TabTamer browser extension: group tabs automatically by domain: as soon as three or more tabs belong to the same site they are collected into a `chrome.tabGroups` group whose colour is derived from a hash of the domain, so it is the same after every restart',
            'Manifest V3 with a service-worker background script',
            'The manifest requests exactly `tabs` and `tabGroups`; host access of any kind is left out because store review rejected an earlier version over it',
            'Pinned tabs and incognito windows are never touched by the grouping',
            'A popup, following the attached sketch, with a switch per window that disables automatic grouping and a button that dissolves all groups',
        ],
        'Key Technical Concepts': ['`chrome.tabs.onUpdated` / `onCreated` listeners', '`chrome.tabs.group` + `chrome.tabGroups.update` (title, colour)',
                                   'Colour from a 31-hash of the hostname modulo the nine group colours'],
        'Files and Code Sections': [
            '`%s/manifest.json`: MV3, service worker `dist/background.js`, permissions `tabs`, `tabGroups`' % JW,
            '`%s/src/domain.ts` (new): `colorFor(domain)`' % JW,
        ],
        'Problem Solving': 'Hostnames are normalised (leading `www.` dropped) before counting so `www.github.com` and `github.com` share a group.',
        'Pending Tasks': ['Grouping logic in `src/background.ts`', 'Popup UI', 'Tests'],
        'Current Work': 'Manifest and colour helper are done; the background grouping logic is next.',
        'Optional Next Step': 'Implement the tab listeners and the grouping in `src/background.ts`.',
    }))
    c.tool('Write', {'file_path': '%s/src/background.ts' % JW, 'content':
                     "import { colorFor } from './domain';\n\nconst groupByDomain = new Map<string, number>();\nconst disabledWindows = new Set<number>();\n\n"
                     "chrome.tabs.onUpdated.addListener(async (_id, info, tab) => {\n  if (!info.url || tab.pinned || tab.incognito || disabledWindows.has(tab.windowId)) return;\n"
                     "  const domain = new URL(info.url).hostname.replace(/^www\\./, '');\n  const same = await chrome.tabs.query({ windowId: tab.windowId, pinned: false });\n"
                     "  const ids = same.filter((t) => t.url && new URL(t.url).hostname.replace(/^www\\./, '') === domain).map((t) => t.id!);\n"
                     "  if (ids.length < 3) return;\n  const groupId = await chrome.tabs.group({ tabIds: ids, groupId: groupByDomain.get(domain) });\n"
                     "  groupByDomain.set(domain, groupId);\n  await chrome.tabGroups.update(groupId, { title: domain, color: colorFor(domain) });\n});\n"},
           created('%s/src/background.ts' % JW),
           text="Background logic: a domain → group map plus the set of windows where grouping is off. If the worker is restarted I'll rebuild the map from `chrome.tabGroups.query` on wake-up.")
    c.tool('Write', {'file_path': '%s/src/popup.css' % JW, 'content':
                     'body {\n  min-width: 360px;\n  font: 14px system-ui, sans-serif;\n  padding: 12px 16px;\n}\n\n.row { display: flex; justify-content: space-between; align-items: center; }\n'},
           created('%s/src/popup.css' % JW), text="Popup styles: a roomy layout so the toggle label fits on one line.")
    c.say("Next: tests. I'll add `jest-chrome` as a dev dependency for the chrome API mocks.")
    c.user('U1', [ide_opened('%s/test/chromeMock.ts' % JW), text('write the tests with vitest against this mock pls, no jest-chrome / sinon-chrome')],
           after=dict(repeat_of='T9', mode='ide_wrapped'))
    c.tool('Write', {'file_path': '%s/test/background.test.ts' % JW, 'content':
                     "import { beforeEach, expect, it } from 'vitest';\nimport { installChromeMock, tabs } from './chromeMock';\n\n"
                     "beforeEach(() => installChromeMock());\n\nit('groups the third tab of a domain', async () => {\n"
                     "  await tabs.open('https://github.com/a');\n  await tabs.open('https://github.com/b');\n  await tabs.open('https://www.github.com/c');\n"
                     "  expect(tabs.groups()).toHaveLength(1);\n});\n"},
           created('%s/test/background.test.ts' % JW), text="Using the existing mock with vitest.")
    return c.write({'situations': ['request paraphrased (3+ -> three or more)', 'negation moved (do NOT add host permissions -> host access left out)',
                                   'state rule silently dropped; after the boundary the assistant keeps state in module globals and says it will rebuild the map on wake-up (the assistant\'s words do not count)',
                                   'store item id fact lost', 'image request partial (toggle + ungroup kept, under 300px wide dropped); the assistant sets min-width 360px after the boundary',
                                   'test rule omitted, repeated by the user behind <ide_opened_file>',
                                   'chatter omitted (short summary): drawn-out word + emoji, slang, "thx!!"'],
                    'notes': 'T5 stays lost although the assistant, after the boundary, talks about rebuilding its map when the worker wakes up: only the user or a tool result can bring a turn back, and the assistant keeps state in module globals anyway.'})


# --------------------------------------------------------------------------------------------
def s11():
    c = Case('s11-trackpoint-webhooks', 'spring', '2.0', seed=6411, pre_tokens=169333, start='2026-02-23T09:31:00')
    t1 = 'Potrzebuję endpointu na webhooki od przewoźników (DPD i InPost), który zapisuje zdarzenia statusu przesyłki do bazy'
    c.user('T1', t1, lab('instruction', 'endpoint for carrier webhooks (DPD, InPost) storing shipment status events', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:pl', 'translated'],
                         S('an endpoint that receives status webhooks from the carriers DPD and InPost and stores each shipment status event in the database')))
    c.tools([('Read', {'file_path': '%s/src/main/java/pl/trackpoint/shipment/Shipment.java' % KU}, numbered(
        'package pl.trackpoint.shipment;\n\n@Entity\n@Table(name = "shipment")\npublic class Shipment {\n    @Id\n    private UUID id;\n'
        '    private String carrier;\n    private String trackingNumber;\n    @Enumerated(EnumType.STRING)\n    private ShipmentStatus status;')),
        ('Bash', {'command': 'ls src/main/resources/db/migration/', 'description': 'List Flyway migrations'},
         'V1__shipment.sql\nV2__shipment_tracking_idx.sql\nV3__customer_ref.sql')],
        text="Sprawdzam encję i migracje.")
    t2 = 'webhooks must be idempotent, carriers resend a lot. dedupe on (carrier, event_id) with a unique constraint, not select-then-insert'
    c.user('T2', t2, lab('instruction', 'idempotent webhooks: unique constraint on (carrier, event_id), not select-then-insert', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:vocab'],
                         S('deduplicated by a database unique constraint on (carrier, event_id) rather than by checking for an existing row before inserting')))
    c.say("A duplicate then surfaces as a `DataIntegrityViolationException`, which the handler treats as success.")
    c.user('C3', 'spoko', lab('chatter', 'chatter: spoko', 'spoko', 'in_summary', 'verbatim', ['chatter', 'language:pl'], S('"spoko"')))
    t4 = ('weryfikuj podpis HMAC z nagłówka X-Signature, sekret osobny dla każdego przewoźnika z Vaulta, and reject anything older '
          'than 5 minutes')
    c.user('T4', t4, lab('instruction', 'verify HMAC from X-Signature with per-carrier secret from Vault; reject events older than 5 minutes', t4, 'lost',
                         'partial', ['form:partial', 'partial', 'language:mixed'], partial=True, lost_part='reject anything older than 5 minutes',
                         distinct=['5 minut', '5 minutes', 'five minutes', 'older than', 'replay']))
    c.say("Where in Vault are the carrier secrets?")
    f5 = 'vault path: secret/data/trackpoint/carriers'
    c.user('F5', f5, lab('user_fact', 'Vault path secret/data/trackpoint/carriers', f5, 'in_summary', 'form:secret/data/trackpoint/carriers',
                         ['fact', 'path'], S('secret/data/trackpoint/carriers'),
                         values=[{'value': 'secret/data/trackpoint/carriers', 'status': 'in_summary', 'found_as': 'secret/data/trackpoint/carriers'}]))
    c.local_command('model', 'Set model to sonnet (claude-sonnet-4-5-20250929)')
    t6 = 'java 21, boot 3.3. records for DTOs, no lombok in new code'
    c.user('T6', t6 + '\n\n' + reminder_todo_empty(),
           lab('instruction', 'Java 21, Spring Boot 3.3; records for DTOs; no Lombok in new code', t6, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:system-reminder', 'reminder:after', 'reminder:todo'],
               S('Java 21 and Spring Boot 3.3; request/response DTOs are Java records and new code does not use Lombok'),
               wrapper='system-reminder'))
    c.tool('Write', {'file_path': '%s/src/main/java/pl/trackpoint/webhook/CarrierEvent.java' % KU, 'content':
                     'package pl.trackpoint.webhook;\n\npublic record CarrierEvent(String carrier, String eventId, String trackingNumber, String status, Instant occurredAt) {}\n'},
           created('%s/src/main/java/pl/trackpoint/webhook/CarrierEvent.java' % KU))
    t7 = 'flyway migration for the table. never edit a migration that already ran, always a new V file'
    c.user('T7', t7, lab('instruction', 'Flyway migration; never edit an applied migration, always a new V file', t7, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved'],
                         S('Schema changes go into a new versioned Flyway script; migrations that have already been applied are treated as immutable')))
    c.tool('Write', {'file_path': '%s/src/main/resources/db/migration/V4__carrier_event.sql' % KU, 'content':
                     'CREATE TABLE carrier_event (\n    id BIGSERIAL PRIMARY KEY,\n    carrier VARCHAR(16) NOT NULL,\n    event_id VARCHAR(64) NOT NULL,\n'
                     '    tracking_number VARCHAR(64) NOT NULL,\n    status VARCHAR(32) NOT NULL,\n    occurred_at TIMESTAMPTZ NOT NULL,\n'
                     '    CONSTRAINT uq_carrier_event UNIQUE (carrier, event_id)\n);\n'},
           created('%s/src/main/resources/db/migration/V4__carrier_event.sql' % KU), text="New migration `V4__carrier_event.sql` with the unique constraint.")
    c.user('C8', 'dzięki 🙏', lab('chatter', 'chatter: dzięki 🙏', 'dzięki 🙏', 'lost', 'omitted', ['chatter', 'language:pl', 'emoji']))
    t9 = 'and answer 202 right away, do the processing async via the outbox table. DPD times out after 3 seconds and then resends'
    c.user('T9', t9, lab('instruction', 'respond 202 immediately; process asynchronously via the outbox table (DPD times out after 3 s)', t9, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content', 'after:assistant-topic'],
                         distinct=['outbox', 'right away', 'times out', '3 seconds', 'three seconds']))
    c.say("OK.")
    t10 = 'integration tests with testcontainers postgres, not H2'
    c.user('T10', t10, lab('instruction', 'integration tests on Testcontainers PostgreSQL, not H2', t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'repeat:in_tool_result'],
                           A('R1', 'Integration tests run against PostgreSQL in Testcontainers'), repeated_after=['in_tool_result']))
    f11 = 'nasz numer klienta w DPD to 1190348, potrzebny w nagłówku odpowiedzi'
    c.user('F11', f11, lab('user_fact', 'DPD customer number 1190348', f11, 'lost', 'omitted', ['fact', 'language:pl'],
                           distinct=['1190348', 'numer klienta', 'customer number', 'client number'],
                           values=[{'value': '1190348', 'status': 'lost', 'found_as': None}]))
    c.say("Noted. Next: the controller and the HMAC filter.")
    c.user('C12', 'elegancko', lab('chatter', 'chatter: elegancko', 'elegancko', 'in_summary', 'verbatim', ['chatter', 'language:pl'], S('"elegancko"')))
    c.compact(summary_20(
        """Chronological review:

1. The user (writing in Polish) asked for an endpoint receiving shipment status webhooks from DPD and InPost.
2. I read the `Shipment` entity and the Flyway migrations (V1–V3). The user required idempotency through a unique constraint.
3. The user asked for HMAC verification of the `X-Signature` header with per-carrier secrets from Vault and gave the Vault path.
4. The user switched the model with `/model`, then set the Java/Spring baseline. I wrote the `CarrierEvent` record.
5. The user set the Flyway rule; I wrote `V4__carrier_event.sql`.
6. The user gave a requirement about response timing and some details about DPD; I said the controller and the HMAC filter come next. The user approved ("elegancko").""",
        {
            'Primary Request and Intent': [
                'Build an endpoint that receives status webhooks from the carriers DPD and InPost and stores each shipment status event in the database',
                'Webhooks must be idempotent, deduplicated by a database unique constraint on (carrier, event_id) rather than by checking for an existing row before inserting',
                "Each request's HMAC from the `X-Signature` header is verified with a per-carrier secret read from Vault",
                'Java 21 and Spring Boot 3.3; request/response DTOs are Java records and new code does not use Lombok',
                'Schema changes go into a new versioned Flyway script; migrations that have already been applied are treated as immutable',
            ],
            'Key Technical Concepts': ['Spring Web MVC controller + servlet filter for signatures', 'Spring Cloud Vault, secrets at secret/data/trackpoint/carriers',
                                       'Flyway (`V4__carrier_event.sql`)', 'Duplicate events surface as `DataIntegrityViolationException` and count as success'],
            'Files and Code Sections': [
                '`%s/src/main/java/pl/trackpoint/webhook/CarrierEvent.java` (new): record `CarrierEvent(carrier, eventId, trackingNumber, status, occurredAt)`' % KU,
                '`%s/src/main/resources/db/migration/V4__carrier_event.sql` (new): table `carrier_event`, `uq_carrier_event UNIQUE (carrier, event_id)`' % KU,
                '`%s/src/main/java/pl/trackpoint/shipment/Shipment.java`: existing entity' % KU,
            ],
            'Errors and fixes': ['None.'],
            'Problem Solving': 'Each carrier gets its own secret so one leaked key does not let anyone forge the other carrier\'s events.',
            'All user messages': [
                'Asked (in Polish) for an endpoint receiving carrier status webhooks (DPD, InPost) and storing the events',
                'Webhooks idempotent: dedupe on (carrier, event_id) with a unique constraint, not select-then-insert',
                '"spoko"',
                'Verify the HMAC in `X-Signature` with a per-carrier secret from Vault',
                'Vault path secret/data/trackpoint/carriers',
                'Java 21, Spring Boot 3.3, records for DTOs, no Lombok in new code',
                'Flyway: new versioned migration, never edit one that has already run',
                'Gave a requirement about response timing',
                '"elegancko"',
            ],
            'Pending Tasks': ['`CarrierWebhookController`', 'HMAC signature filter', 'Mapping DPD/InPost payloads to `CarrierEvent`', 'Integration tests'],
            'Current Work': 'Record and migration are written; the controller and the signature filter are next.',
            'Optional Next Step': 'Write `CarrierWebhookController` with `POST /webhooks/{carrier}`.',
        }))
    c.tool('Read', {'file_path': '%s/README.md' % KU}, numbered(
        '# trackpoint-service\n\nShipment tracking for the Trackpoint platform.\n\n## Running locally\n`./gradlew bootRun` (needs Vault dev server, see `docker-compose.yml`)\n\n'
        '### Tests\nIntegration tests run against PostgreSQL in Testcontainers (H2 is not used: its SQL dialect hides constraint bugs).'),
        text="Reading the README for the test setup before writing the controller.", anchor='R1')
    c.tool('Write', {'file_path': '%s/src/main/java/pl/trackpoint/webhook/CarrierWebhookController.java' % KU, 'content':
                     'package pl.trackpoint.webhook;\n\n@RestController\n@RequestMapping("/webhooks")\nclass CarrierWebhookController {\n'
                     '    private final CarrierEventService service;\n\n    CarrierWebhookController(CarrierEventService service) { this.service = service; }\n\n'
                     '    @PostMapping("/{carrier}")\n    ResponseEntity<Void> receive(@PathVariable String carrier, @RequestBody JsonNode payload) {\n'
                     '        service.process(carrier, payload);   // map, store, update shipment status\n        return ResponseEntity.ok().build();\n    }\n}\n'},
           created('%s/src/main/java/pl/trackpoint/webhook/CarrierWebhookController.java' % KU),
           text="Controller: maps the payload, stores the event and updates the shipment status within the request, then returns 200.")
    c.say("Controller is in. Next: the HMAC filter reading the per-carrier secrets from Vault.")
    return c.write({'situations': ['Polish request restated in English', 'idempotency rule paraphrased', 'Polish chatter quoted / omitted',
                                   'mixed Polish/English partial (HMAC with per-carrier Vault secret kept, 5-minute age limit dropped)',
                                   'path fact kept verbatim', 'local /model command: isMeta caveat, command record and output record (skipped)',
                                   'wrapper:system-reminder (empty todo list) after the request; paraphrased',
                                   'negation moved (never edit an applied migration -> treated as immutable)',
                                   'async/202 rule lost: "Gave a requirement about response timing"; the assistant processes synchronously and returns 200 after the boundary',
                                   'test rule omitted, recorded in README.md which the agent reads after the boundary (in_tool_result)',
                                   'customer-number fact lost']})


# --------------------------------------------------------------------------------------------
def s12():
    c = Case('s12-terrain-forge-erosion', 'blender', '2.1', seed=6412, pre_tokens=152774, start='2026-01-19T20:06:00')
    t1 = 'lägg till en panel i N-panelen för erosion: antal iterationer, regnmängd och sedimentkapacitet'
    c.user('T1', t1, lab('instruction', 'erosion panel in the N sidebar: iterations, rain amount, sediment capacity', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:sv', 'translated'],
                         S("an erosion panel in the 3D viewport's N sidebar exposing the iteration count, the rain amount and the sediment capacity")))
    c.tools([('Read', {'file_path': '%s/__init__.py' % EL}, numbered(
        'bl_info = {\n    "name": "Terrain Forge",\n    "blender": (3, 6, 0),\n    "category": "Add Mesh",\n}\n\n'
        'from . import operators, properties, ui\n\n\ndef register():\n    properties.register()\n    operators.register()\n    ui.register()')),
        ('Glob', {'pattern': '*.py'}, '\n'.join('%s/%s' % (EL, f) for f in ['__init__.py', 'erosion.py', 'operators.py', 'properties.py', 'ui.py']))],
        text="Kollar hur tillägget är uppbyggt.")
    t2 = 'must work in blender 3.6 LTS and 4.2 LTS, so nothing that only exists in 4.x'
    c.user('T2', t2, lab('instruction', 'support Blender 3.6 LTS and 4.2 LTS; no 4.x-only API', t2, 'in_summary', 'paraphrase', ['form:paraphrase', 'negation-moved'],
                         S('The add-on has to run on both Blender 3.6 LTS and 4.2 LTS, so it sticks to API that 3.6 already has')))
    c.user('C3', 'tack!', lab('chatter', 'chatter: tack!', 'tack!', 'in_summary', 'verbatim', ['chatter', 'language:sv'], S('"tack!"')))
    sel = ('    for v in mesh.vertices:\n        h = heights[v.index]\n        for n in neighbours[v.index]:\n'
           '            d = h - heights[n]\n            if d > 0:\n                moved = min(d * rate, sediment[v.index])')
    t4 = 'this python loop takes forever on a 1024x1024 grid. vectorize with numpy, no per-vertex python loops'
    c.user('T4', [ide_selection('%s/erosion.py' % EL, 31, 36, sel), text(t4)],
           lab('instruction', 'vectorise the erosion step with numpy; no per-vertex Python loops (too slow at 1024x1024)', t4, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_selection', 'negation-moved'],
               S('The erosion step works on whole numpy arrays instead of iterating over vertices in Python (the loop was far too slow on a 1024×1024 grid)'),
               wrapper='ide_selection', values=[{'value': '1024x1024', 'status': 'in_summary', 'found_as': '1024×1024'}]))
    c.tool('Edit', {'file_path': '%s/erosion.py' % EL, 'old_string': sel,
                    'new_string': '    h = heights.reshape(res, res)\n    grad = np.stack(np.gradient(h))\n    slope = np.hypot(*grad)'},
           edited('%s/erosion.py' % EL, '    h = heights.reshape(res, res)\n    grad = np.stack(np.gradient(h))\n    slope = np.hypot(*grad)', 31),
           text="Replacing the neighbour loop with array operations on the height grid.")
    t5 = "don't add scipy or any other pip dependency, the only thing blender's bundled python reliably has is numpy"
    c.user('T5', t5, lab('instruction', 'no scipy or other pip dependency; only numpy (bundled with Blender)', t5, 'lost', 'omitted',
                         ['form:omitted', 'after:assistant-topic'],
                         distinct=['bundled', 'pip dependency', 'reliably']))
    f6 = 'test file: ~/blender/tests/alps_dem.blend'
    c.user('F6', f6, lab('user_fact', 'test file ~/blender/tests/alps_dem.blend', f6, 'in_summary', 'form:/Users/elin/blender/tests/alps_dem.blend',
                         ['fact', 'path', 'form:absolute-path'], S('`/Users/elin/blender/tests/alps_dem.blend`'),
                         values=[{'value': '~/blender/tests/alps_dem.blend', 'status': 'in_summary', 'found_as': '/Users/elin/blender/tests/alps_dem.blend'}]))
    t7 = 'the operator has to be undoable (REGISTER, UNDO) and run modal with a progress bar so the UI doesnt freeze'
    c.user('T7', t7, lab('instruction', 'operator undoable (REGISTER, UNDO); modal with a progress bar so the UI does not freeze', t7, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True, lost_part='modal operator with a progress bar so the UI does not freeze',
                         distinct=['modal', 'progress', 'freeze']))
    c.say("I'll set `bl_options = {'REGISTER', 'UNDO'}` on the erosion operator.")
    c.user('C8', 'hehe nice 😄', lab('chatter', 'chatter: hehe nice 😄', 'hehe nice 😄', 'lost', 'omitted', ['chatter', 'emoji']))
    t9 = 'alla property-namn ska ha prefixet tf_ så att de inte krockar med andra addons'
    c.user('T9', [text(reminder_modified('%s/properties.py' % EL)), text(t9)],
           lab('instruction', 'all property names prefixed tf_ (avoid clashes with other add-ons)', t9, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:system-reminder', 'reminder:block-before', 'language:sv', 'translated'],
               S('Every registered property name starts with `tf_` so it cannot collide with other add-ons'), wrapper='system-reminder'))
    c.tool('Write', {'file_path': '%s/properties.py' % EL, 'content':
                     'import bpy\n\n\nclass TF_ErosionSettings(bpy.types.PropertyGroup):\n'
                     '    tf_iterations: bpy.props.IntProperty(name="Iterations", default=50, min=1, max=500)\n'
                     '    tf_rain: bpy.props.FloatProperty(name="Rain", default=0.01, min=0.0)\n'
                     '    tf_capacity: bpy.props.FloatProperty(name="Sediment capacity", default=4.0, min=0.0)\n'},
           created('%s/properties.py' % EL))
    t10 = 'skriv aldrig över originalmeshen, gör en kopia och jobba på den'
    c.user('T10', t10, lab('instruction', 'never overwrite the original mesh; work on a copy', t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'language:sv', 'repeat:paraphrase'],
                           A('U1', 'never overwrite the original mesh, erode a copy'), repeated_after=['paraphrase']))
    t11 = 'register/unregister must be clean, i reload the addon with F8 constantly'
    c.user('T11', t11, lab('instruction', 'clean register/unregister (add-on reloaded with F8 often)', t11, 'lost', 'omitted',
                           ['form:omitted', 'summary:mentions-without-content'],
                           distinct=['unregister', 'f8', 'constantly']))
    c.say("Okej.")
    f12 = 'the erosion model we follow is Mei et al. 2007 (the GPU hydraulic erosion paper)'
    c.user('F12', f12, lab('user_fact', 'erosion model: Mei et al. 2007', f12, 'in_summary', 'form:Mei et al. (2007)', ['fact'],
                           S('Mei et al. (2007)'), values=[{'value': 'Mei et al. 2007', 'status': 'in_summary', 'found_as': 'Mei et al. (2007)'}]))
    c.user('C13', 'toppen, kör', lab('chatter', 'chatter: toppen, kör', 'toppen, kör', 'in_summary', 'verbatim', ['chatter', 'language:sv'], S('"toppen, kör"')))
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            "Terrain Forge add-on: add an erosion panel in the 3D viewport's N sidebar exposing the iteration count, the rain amount and the sediment capacity",
            'The add-on has to run on both Blender 3.6 LTS and 4.2 LTS, so it sticks to API that 3.6 already has',
            'The erosion step works on whole numpy arrays instead of iterating over vertices in Python (the loop was far too slow on a 1024×1024 grid)',
            'The erosion operator must be undoable',
            'Every registered property name starts with `tf_` so it cannot collide with other add-ons',
        ],
        'Key Technical Concepts': ['Hydraulic erosion after Mei et al. (2007): water, sediment, capacity, evaporation per step', 'numpy height grids (`np.gradient`, `np.hypot`)',
                                   '`bpy.types.PropertyGroup`, `bl_options`', 'Test scene `/Users/elin/blender/tests/alps_dem.blend`'],
        'Files and Code Sections': [
            '`%s/erosion.py`: neighbour loop replaced by array operations (`np.gradient`, slope via `np.hypot`)' % EL,
            '`%s/properties.py`: `TF_ErosionSettings` with `tf_iterations`, `tf_rain`, `tf_capacity`' % EL,
            '`%s/__init__.py`: `bl_info` (min Blender 3.6), registers properties, operators, ui' % EL,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'Heights are reshaped to a square grid so neighbour differences become array slices.',
        'All user messages': [
            'Asked (in Swedish) for an erosion panel in the N sidebar: iterations, rain amount, sediment capacity',
            'Must run on Blender 3.6 LTS and 4.2 LTS; nothing 4.x-only',
            '"tack!"',
            'Selected the per-vertex loop in `erosion.py`: too slow on 1024×1024, vectorise with numpy',
            'Test file `/Users/elin/blender/tests/alps_dem.blend`',
            'The operator must be undoable',
            'After editing `properties.py`: property names prefixed `tf_` (in Swedish)',
            'A remark about reloading the add-on',
            'The model follows Mei et al. (2007)',
            '"toppen, kör"',
        ],
        'Pending Tasks': ['Erosion operator', 'Panel in `ui.py`', 'Sediment transport and deposition step'],
        'Current Work': 'Vectorised slope computation and the property group are done; the operator is next.',
        'Optional Next Step': 'Write `TF_OT_erode` in `operators.py`.',
    }))
    c.tool('Edit', {'file_path': '%s/erosion.py' % EL, 'old_string': 'import numpy as np\n',
                    'new_string': 'import numpy as np\nfrom scipy.ndimage import gaussian_filter\n'},
           edited('%s/erosion.py' % EL, 'import numpy as np\nfrom scipy.ndimage import gaussian_filter', 1),
           text="Smoothing the deposited sediment with `scipy.ndimage.gaussian_filter` between iterations to avoid spikes.")
    c.tool('Write', {'file_path': '%s/operators.py' % EL, 'content':
                     'import bpy\nimport numpy as np\n\nfrom . import erosion\n\n\nclass TF_OT_erode(bpy.types.Operator):\n    bl_idname = "terrain_forge.erode"\n'
                     '    bl_label = "Erode"\n    bl_options = {"REGISTER", "UNDO"}\n\n    def execute(self, context):\n        s = context.scene.tf_erosion\n'
                     '        mesh = context.active_object.data\n        h = erosion.heights_from_mesh(mesh)\n'
                     '        for _ in range(s.tf_iterations):\n            h = erosion.step(h, s.tf_rain, s.tf_capacity)\n'
                     '        erosion.write_heights(mesh, h)\n        return {"FINISHED"}\n'},
           created('%s/operators.py' % EL), text="The operator runs all iterations in `execute` and writes the heights back into the active object's mesh.")
    c.user('U1', 'again: never overwrite the original mesh, erode a copy', after=dict(repeat_of='T10', mode='paraphrase'))
    c.tool('Edit', {'file_path': '%s/operators.py' % EL, 'old_string': '        mesh = context.active_object.data\n',
                    'new_string': '        src = context.active_object\n        dup = src.copy()\n        dup.data = src.data.copy()\n'
                                  '        dup.name = src.name + "_eroded"\n        context.collection.objects.link(dup)\n        mesh = dup.data\n'},
           edited('%s/operators.py' % EL, '        src = context.active_object\n        dup = src.copy()\n        dup.data = src.data.copy()', 13),
           text="Right, eroding a duplicate now.")
    return c.write({'situations': ['Swedish request restated in English', 'negation moved (nothing 4.x-only -> sticks to API that 3.6 already has)',
                                   'Swedish chatter quoted', 'wrapper:ide_selection request paraphrased (1024x1024 -> 1024×1024)',
                                   'no-pip-dependency rule silently dropped; the assistant imports scipy after the boundary',
                                   'path fact with ~ kept as an absolute path',
                                   'partial (undoable kept, modal + progress bar dropped); the assistant runs all iterations in execute after the boundary',
                                   'emoji chatter omitted', 'wrapper:system-reminder before a Swedish request, paraphrased',
                                   'Swedish copy-the-mesh rule omitted, paraphrased in English by the user after the boundary',
                                   'register/unregister rule lost: "A remark about reloading the add-on"', 'citation fact kept (2007 -> (2007))']})


CASES = [s07, s08, s09, s10, s11, s12]
