"""The task counters (tasks.models.TaskCount): the table, the triggers that keep it, and a first count.

The triggers' SQL is tasks/count_triggers.py, which also installs them again after any later
migrate that finds them missing (tasks.apps).
"""
import django.db.models.deletion
from django.db import migrations, models

from tasks.count_triggers import counters_install, counters_uninstall


def forward(apps, schema_editor):
    counters_install(schema_editor.connection)


def backward(apps, schema_editor):
    counters_uninstall(schema_editor.connection)


class Migration(migrations.Migration):

    dependencies = [
        ('projects', '0001_initial'),
        ('tasks', '0006_activity_deleted_task_id'),
    ]

    operations = [
        migrations.CreateModel(
            name='TaskCount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(max_length=12)),
                ('assignee_key', models.BigIntegerField()),
                ('top_level', models.BooleanField()),
                ('tasks', models.IntegerField()),
                ('project', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+',
                                              to='projects.project')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('project', 'status', 'assignee_key', 'top_level'),
                                                        name='taskcount_key')],
            },
        ),
        migrations.RunPython(forward, backward),
    ]
