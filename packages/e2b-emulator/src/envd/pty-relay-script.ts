/**
 * The python3 helper behind a PTY process (Node has no pseudo-terminal API). Started with fd 3 a
 * control socket, it reads one JSON line there, `{argv, env, cols, rows}`, opens a
 * pseudo-terminal of that size and forks: the child becomes a session leader with the terminal
 * as its controlling terminal and stdio, and execs `argv` with `env` (for a namespaced sandbox
 * `argv` is its `nsenter` launch, so the shell runs inside the sandbox like any command). The
 * helper then writes `pid <child pid>` on fd 3 and relays: its stdin to the terminal, the
 * terminal's output to its stdout, and `resize <cols> <rows>` lines on fd 3 to
 * `ioctl(TIOCSWINSZ)` (the kernel signals SIGWINCH to the terminal's foreground group).
 *
 * When the child exits, output already written is drained and the helper exits the same way
 * (its code, or killed by the same signal). Its own argv and environment hold nothing of the
 * sandbox's; it runs with `-I`, so no PYTHON* variable changes what it does, and it runs no
 * sandbox code itself: it only moves bytes.
 */
export const PTY_RELAY_SCRIPT = String.raw`
import errno, fcntl, json, os, select, signal, struct, sys, termios
CONTROL = 3

def set_size(fd, cols, rows):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))

def write_all(fd, data):
    while data:
        data = data[os.write(fd, data):]

setup_line = b''
while not setup_line.endswith(b'\n'):
    chunk = os.read(CONTROL, 65536)
    if not chunk:
        sys.exit(2)
    setup_line += chunk
setup = json.loads(setup_line)
master, slave = os.openpty()
set_size(slave, setup['cols'], setup['rows'])
child = os.fork()
if child == 0:
    try:
        # Python ignores these; an exec keeps ignored signals, and the shell must not.
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        os.closerange(3, 65536)
        os.execvpe(setup['argv'][0], setup['argv'], setup['env'])
    except OSError as error:
        os.write(2, ('error starting process: ' + str(error) + '\n').encode())
    os._exit(127)
os.close(slave)
write_all(CONTROL, ('pid %d\n' % child).encode())
os.set_blocking(master, False)

to_terminal = b''
control_buffer = b''
reading = {master, 0, CONTROL}
status = None
while True:
    writing = [master] if to_terminal else []
    readable, writable, _ = select.select(list(reading), writing, [], 0.05 if status is None else 0)
    if master in writable:
        try:
            to_terminal = to_terminal[os.write(master, to_terminal):]
        except BlockingIOError:
            pass
    if master in readable:
        try:
            data = os.read(master, 65536)
        except BlockingIOError:
            data = None
        except OSError:
            data = b''
        if data == b'':
            break
        if data:
            write_all(1, data)
    if 0 in readable:
        data = os.read(0, 65536)
        if data:
            to_terminal += data
        else:
            reading.discard(0)
    if CONTROL in readable:
        data = os.read(CONTROL, 65536)
        if not data:
            reading.discard(CONTROL)
        control_buffer += data
        while b'\n' in control_buffer:
            line, control_buffer = control_buffer.split(b'\n', 1)
            words = line.split()
            if len(words) == 3 and words[0] == b'resize':
                set_size(master, int(words[1]), int(words[2]))
    if status is None:
        finished, child_status = os.waitpid(child, os.WNOHANG)
        if finished:
            status = child_status
    elif master not in readable:
        break

if status is None:
    _, status = os.waitpid(child, 0)
if os.WIFSIGNALED(status):
    signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
    os.kill(os.getpid(), os.WTERMSIG(status))
sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)
`;
